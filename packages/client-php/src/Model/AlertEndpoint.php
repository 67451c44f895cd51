<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class AlertEndpoint implements \JsonSerializable
{
    public function __construct(
        public readonly string $id,
        public readonly string $url,
        public readonly string $description,
        /**
         * Subscribed types; null takes every type.
         * @var list<AlertEventType>|null
         */
        public readonly ?array $eventTypes,
        /**
         * Only events about these identities; null takes every event.
         * @var list<string>|null
         */
        public readonly ?array $identityIds,
        public readonly bool $enabled,
        /** Why it is disabled: after a 410, after failing 5 days, or by hand. */
        public readonly ?AlertEndpointDisabledReason $disabledReason,
        /**
         * While a rotated secret overlaps (deliveries carry both signatures): when the old one stops; else
         * null.
         */
        public readonly ?\DateTimeImmutable $previousSecretExpiresAt,
        /** ISO 8601 instant (UTC). */
        public readonly ?\DateTimeImmutable $failingSince,
        /** ISO 8601 instant (UTC). */
        public readonly \DateTimeImmutable $createdAt,
        /** ISO 8601 instant (UTC). */
        public readonly \DateTimeImmutable $updatedAt,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['id'],
            $data['url'],
            $data['description'],
            (static fn ($v) => $v === null ? null : array_map(static fn ($i) => AlertEventType::from($i), $v))($data['eventTypes']),
            $data['identityIds'],
            $data['enabled'],
            (static fn ($v) => $v === null ? null : AlertEndpointDisabledReason::from($v))($data['disabledReason']),
            (static fn ($v) => $v === null ? null : new \DateTimeImmutable($v))($data['previousSecretExpiresAt']),
            (static fn ($v) => $v === null ? null : new \DateTimeImmutable($v))($data['failingSince']),
            new \DateTimeImmutable($data['createdAt']),
            new \DateTimeImmutable($data['updatedAt']),
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
        $data['identityIds'] = $this->identityIds;
        $data['enabled'] = $this->enabled;
        $data['disabledReason'] = $this->disabledReason?->value;
        $data['previousSecretExpiresAt'] = $this->previousSecretExpiresAt?->format('Y-m-d\TH:i:s.vP');
        $data['failingSince'] = $this->failingSince?->format('Y-m-d\TH:i:s.vP');
        $data['createdAt'] = $this->createdAt->format('Y-m-d\TH:i:s.vP');
        $data['updatedAt'] = $this->updatedAt->format('Y-m-d\TH:i:s.vP');
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
