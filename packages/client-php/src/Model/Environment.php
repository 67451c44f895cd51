<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

/** A live key reaches only live data, a test key only test data. */
enum Environment: string
{
    case Live = 'live';
    case Test = 'test';
}
