<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

enum QuotaThresholdAlertDataPeriod: string
{
    case Day = 'day';
    case Week = 'week';
    case Month = 'month';
}
