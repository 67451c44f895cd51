<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

enum AlertEndpointDisabledReason: string
{
    case Gone = 'gone';
    case Failing = 'failing';
    case Manual = 'manual';
}
