<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class Agreement implements \JsonSerializable
{
    public function __construct(
        public readonly string $priceId,
        public readonly string $sku,
        public readonly string $channel,
        public readonly string $currency,
        /** Gross in VAT-inclusive channels, else net (minor units). */
        public readonly int $amount,
        public readonly int $minQuantity,
        /** ISO 8601 instant (UTC). */
        public readonly ?\DateTimeImmutable $validFrom,
        /** ISO 8601 instant (UTC). */
        public readonly ?\DateTimeImmutable $validTo,
        /** True when the validity window contains now. */
        public readonly bool $isCurrent,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['priceId'],
            $data['sku'],
            $data['channel'],
            $data['currency'],
            $data['amount'],
            $data['minQuantity'],
            (static fn ($v) => $v === null ? null : new \DateTimeImmutable($v))($data['validFrom']),
            (static fn ($v) => $v === null ? null : new \DateTimeImmutable($v))($data['validTo']),
            $data['isCurrent'],
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['priceId'] = $this->priceId;
        $data['sku'] = $this->sku;
        $data['channel'] = $this->channel;
        $data['currency'] = $this->currency;
        $data['amount'] = $this->amount;
        $data['minQuantity'] = $this->minQuantity;
        $data['validFrom'] = $this->validFrom?->format('Y-m-d\TH:i:s.vP');
        $data['validTo'] = $this->validTo?->format('Y-m-d\TH:i:s.vP');
        $data['isCurrent'] = $this->isCurrent;
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
