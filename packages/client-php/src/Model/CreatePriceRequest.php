<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class CreatePriceRequest implements \JsonSerializable
{
    public function __construct(
        public readonly string $sku,
        public readonly string $channel,
        public readonly PriceLevel $level,
        public readonly int $amount,
        public readonly ?CustomerTier $tier = null,
        public readonly ?string $customerId = null,
        public readonly ?int $minQuantity = null,
        public readonly ?\DateTimeImmutable $validFrom = null,
        public readonly ?\DateTimeImmutable $validTo = null,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['sku'],
            $data['channel'],
            PriceLevel::from($data['level']),
            $data['amount'],
            tier: (static fn ($v) => $v === null ? null : CustomerTier::from($v))($data['tier'] ?? null),
            customerId: $data['customerId'] ?? null,
            minQuantity: $data['minQuantity'] ?? null,
            validFrom: (static fn ($v) => $v === null ? null : new \DateTimeImmutable($v))($data['validFrom'] ?? null),
            validTo: (static fn ($v) => $v === null ? null : new \DateTimeImmutable($v))($data['validTo'] ?? null),
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['sku'] = $this->sku;
        $data['channel'] = $this->channel;
        $data['level'] = $this->level->value;
        $data['amount'] = $this->amount;
        if ($this->tier !== null) {
            $data['tier'] = $this->tier?->value;
        }
        if ($this->customerId !== null) {
            $data['customerId'] = $this->customerId;
        }
        if ($this->minQuantity !== null) {
            $data['minQuantity'] = $this->minQuantity;
        }
        if ($this->validFrom !== null) {
            $data['validFrom'] = $this->validFrom?->format('Y-m-d\TH:i:s.vP');
        }
        if ($this->validTo !== null) {
            $data['validTo'] = $this->validTo?->format('Y-m-d\TH:i:s.vP');
        }
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
