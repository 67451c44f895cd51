<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class Customer implements \JsonSerializable
{
    public function __construct(
        public readonly string $id,
        public readonly string $name,
        public readonly CustomerTier $tier,
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
            $data['name'],
            CustomerTier::from($data['tier']),
            new \DateTimeImmutable($data['createdAt']),
            new \DateTimeImmutable($data['updatedAt']),
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['id'] = $this->id;
        $data['name'] = $this->name;
        $data['tier'] = $this->tier->value;
        $data['createdAt'] = $this->createdAt->format('Y-m-d\TH:i:s.vP');
        $data['updatedAt'] = $this->updatedAt->format('Y-m-d\TH:i:s.vP');
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
