<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

/** placed → cancelled (stock released) or placed → fulfilled. */
enum OrderStatus: string
{
    case Placed = 'placed';
    case Cancelled = 'cancelled';
    case Fulfilled = 'fulfilled';
}
