<?php

declare(strict_types=1);

namespace Keygate\Client;

/** A webhook that passed `Webhook::verify`. */
final class VerifiedWebhook
{
    /** @param array<string, mixed> $payload the decoded JSON body: `id`, `type`, `createdAt`, `environment`, `data` */
    public function __construct(
        /** `webhook-id`: the same on every retry of one message, so receivers dedupe on it. */
        public readonly string $id,
        /** `webhook-timestamp` of this attempt, Unix seconds. */
        public readonly int $timestamp,
        public readonly array $payload,
    ) {
    }

    /**
     * The payload as its generated model (`Model\StockUpdatedEvent` for `stock.updated`, …; see
     * `WebhookEvents::MODELS`), or null for an event type this version of the client does not know.
     */
    public function event(): ?object
    {
        return WebhookEvents::fromPayload($this->payload);
    }
}
