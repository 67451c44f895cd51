<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

/** `<resource>:r` (read) or `<resource>:rw` (read and write; implies `r`). */
enum Scope: string
{
    case OrderR = 'order:r';
    case OrderRw = 'order:rw';
    case ArticleR = 'article:r';
    case ArticleRw = 'article:rw';
    case StockR = 'stock:r';
    case StockRw = 'stock:rw';
    case AuthR = 'auth:r';
    case AuthRw = 'auth:rw';
    case CustomerR = 'customer:r';
    case CustomerRw = 'customer:rw';
    case PricingR = 'pricing:r';
    case PricingRw = 'pricing:rw';
    case WebhookR = 'webhook:r';
    case WebhookRw = 'webhook:rw';
}
