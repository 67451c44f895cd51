<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

/** Which price applied: agreement (the customer’s own) > tier > base. */
enum PriceLevel: string
{
    case Base = 'base';
    case Tier = 'tier';
    case Agreement = 'agreement';
}
