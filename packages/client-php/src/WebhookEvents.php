<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client;

/** The webhook events keygate sends, by type, with the model of each payload. */
final class WebhookEvents
{
    /** Event type → model class of its payload. */
    public const MODELS = [
        'order.created' => Model\OrderCreatedEvent::class,
        'order.status_changed' => Model\OrderStatusChangedEvent::class,
        'stock.updated' => Model\StockUpdatedEvent::class,
        'stock.out_of_stock' => Model\StockOutOfStockEvent::class,
        'stock.back_in_stock' => Model\StockBackInStockEvent::class,
        'customer.created' => Model\CustomerCreatedEvent::class,
        'customer.updated' => Model\CustomerUpdatedEvent::class,
        'customer.tier_changed' => Model\CustomerTierChangedEvent::class,
        'product.updated' => Model\ProductUpdatedEvent::class,
        'pricing.price.created' => Model\PricingPriceCreatedEvent::class,
        'pricing.price.updated' => Model\PricingPriceUpdatedEvent::class,
        'pricing.price.deleted' => Model\PricingPriceDeletedEvent::class,
        'pricing.vat_rate.updated' => Model\PricingVatRateUpdatedEvent::class,
        'webhook.test' => Model\WebhookTestEvent::class,
        'key.created' => Model\KeyCreatedAlert::class,
        'key.rotated' => Model\KeyRotatedAlert::class,
        'key.secret_closed' => Model\KeySecretClosedAlert::class,
        'key.revoked' => Model\KeyRevokedAlert::class,
        'key.scopes_changed' => Model\KeyScopesChangedAlert::class,
        'key.expiring' => Model\KeyExpiringAlert::class,
        'key.expired' => Model\KeyExpiredAlert::class,
        'quota.threshold' => Model\QuotaThresholdAlert::class,
        'credits.low' => Model\CreditsLowAlert::class,
        'credits.exhausted' => Model\CreditsExhaustedAlert::class,
        'key.rate_limited' => Model\KeyRateLimitedAlert::class,
        'alert.test' => Model\AlertTestAlert::class,
    ];

    /**
     * The typed event of a verified payload, or null for a type this version of the client does not know.
     *
     * @param array<string, mixed> $payload
     * @return (Model\OrderCreatedEvent|Model\OrderStatusChangedEvent|Model\StockUpdatedEvent|Model\StockOutOfStockEvent|Model\StockBackInStockEvent|Model\CustomerCreatedEvent|Model\CustomerUpdatedEvent|Model\CustomerTierChangedEvent|Model\ProductUpdatedEvent|Model\PricingPriceCreatedEvent|Model\PricingPriceUpdatedEvent|Model\PricingPriceDeletedEvent|Model\PricingVatRateUpdatedEvent|Model\WebhookTestEvent|Model\KeyCreatedAlert|Model\KeyRotatedAlert|Model\KeySecretClosedAlert|Model\KeyRevokedAlert|Model\KeyScopesChangedAlert|Model\KeyExpiringAlert|Model\KeyExpiredAlert|Model\QuotaThresholdAlert|Model\CreditsLowAlert|Model\CreditsExhaustedAlert|Model\KeyRateLimitedAlert|Model\AlertTestAlert)|null
     */
    public static function fromPayload(array $payload): ?object
    {
        $class = self::MODELS[$payload['type'] ?? ''] ?? null;
        return $class === null ? null : $class::fromArray($payload);
    }
}
