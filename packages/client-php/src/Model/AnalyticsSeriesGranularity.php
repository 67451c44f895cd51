<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

enum AnalyticsSeriesGranularity: string
{
    case Minute = 'minute';
    case Hour = 'hour';
    case Day = 'day';
}
