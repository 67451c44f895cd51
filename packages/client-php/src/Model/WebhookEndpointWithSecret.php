<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class WebhookEndpointWithSecret implements \JsonSerializable
{
    public function __construct(
        public readonly string $id,
        public readonly string $url,
        public readonly string $description,
        /**
         * Subscribed event types; null subscribes to every type.
         * @var list<EventType>|null
         */
        public readonly ?array $eventTypes,
        public readonly bool $enabled,
        /** Why the endpoint is disabled: by hand, after a 410, or after failing 5 days. */
        public readonly ?WebhookEndpointDisabledReason $disabledReason,
        /** While a rotated secret overlaps, deliveries carry both signatures. */
        public readonly ?WebhookEndpointSecretRotation $secretRotation,
        /** ISO 8601 instant (UTC). */
        public readonly ?\DateTimeImmutable $failingSince,
        public readonly string $createdByKeyId,
        /** ISO 8601 instant (UTC). */
        public readonly \DateTimeImmutable $createdAt,
        /** ISO 8601 instant (UTC). */
        public readonly \DateTimeImmutable $updatedAt,
        /** The signing secret (`whsec_` + base64), shown only here. */
        public readonly string $secret,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['id'],
            $data['url'],
            $data['description'],
            (static fn ($v) => $v === null ? null : array_map(static fn ($i) => EventType::from($i), $v))($data['eventTypes']),
            $data['enabled'],
            (static fn ($v) => $v === null ? null : WebhookEndpointDisabledReason::from($v))($data['disabledReason']),
            (static fn ($v) => $v === null ? null : WebhookEndpointSecretRotation::fromArray($v))($data['secretRotation']),
            (static fn ($v) => $v === null ? null : new \DateTimeImmutable($v))($data['failingSince']),
            $data['createdByKeyId'],
            new \DateTimeImmutable($data['createdAt']),
            new \DateTimeImmutable($data['updatedAt']),
            $data['secret'],
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['id'] = $this->id;
        $data['url'] = $this->url;
        $data['description'] = $this->description;
        $data['eventTypes'] = $this->eventTypes === null ? null : array_map(static fn ($i) => $i->value, $this->eventTypes);
        $data['enabled'] = $this->enabled;
        $data['disabledReason'] = $this->disabledReason?->value;
        $data['secretRotation'] = $this->secretRotation?->toArray();
        $data['failingSince'] = $this->failingSince?->format('Y-m-d\TH:i:s.vP');
        $data['createdByKeyId'] = $this->createdByKeyId;
        $data['createdAt'] = $this->createdAt->format('Y-m-d\TH:i:s.vP');
        $data['updatedAt'] = $this->updatedAt->format('Y-m-d\TH:i:s.vP');
        $data['secret'] = $this->secret;
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
