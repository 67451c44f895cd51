<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

enum EventType: string
{
    case OrderCreated = 'order.created';
    case OrderStatusChanged = 'order.status_changed';
    case StockUpdated = 'stock.updated';
    case StockOutOfStock = 'stock.out_of_stock';
    case StockBackInStock = 'stock.back_in_stock';
    case CustomerCreated = 'customer.created';
    case CustomerUpdated = 'customer.updated';
    case CustomerTierChanged = 'customer.tier_changed';
    case ProductUpdated = 'product.updated';
    case PricingPriceCreated = 'pricing.price.created';
    case PricingPriceUpdated = 'pricing.price.updated';
    case PricingPriceDeleted = 'pricing.price.deleted';
    case PricingVatRateUpdated = 'pricing.vat_rate.updated';
}
