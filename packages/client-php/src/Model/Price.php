<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class Price implements \JsonSerializable
{
    public function __construct(
        public readonly string $id,
        public readonly string $sku,
        public readonly string $productId,
        public readonly string $channel,
        public readonly string $currency,
        public readonly PriceLevel $level,
        /** The tier of a `tier` price, else null. */
        public readonly ?CustomerTier $tier,
        /** The customer of an `agreement` price, else null. */
        public readonly ?string $customerId,
        public readonly int $minQuantity,
        /** Applies from this instant (inclusive); null: no lower bound. */
        public readonly ?\DateTimeImmutable $validFrom,
        /** Applies until this instant (exclusive); null: no upper bound. */
        public readonly ?\DateTimeImmutable $validTo,
        /** Gross in channels whose prices include VAT, else net (minor units). */
        public readonly int $amount,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['id'],
            $data['sku'],
            $data['productId'],
            $data['channel'],
            $data['currency'],
            PriceLevel::from($data['level']),
            (static fn ($v) => $v === null ? null : CustomerTier::from($v))($data['tier']),
            $data['customerId'],
            $data['minQuantity'],
            (static fn ($v) => $v === null ? null : new \DateTimeImmutable($v))($data['validFrom']),
            (static fn ($v) => $v === null ? null : new \DateTimeImmutable($v))($data['validTo']),
            $data['amount'],
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['id'] = $this->id;
        $data['sku'] = $this->sku;
        $data['productId'] = $this->productId;
        $data['channel'] = $this->channel;
        $data['currency'] = $this->currency;
        $data['level'] = $this->level->value;
        $data['tier'] = $this->tier?->value;
        $data['customerId'] = $this->customerId;
        $data['minQuantity'] = $this->minQuantity;
        $data['validFrom'] = $this->validFrom?->format('Y-m-d\TH:i:s.vP');
        $data['validTo'] = $this->validTo?->format('Y-m-d\TH:i:s.vP');
        $data['amount'] = $this->amount;
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
