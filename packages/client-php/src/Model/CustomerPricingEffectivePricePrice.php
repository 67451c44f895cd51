<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class CustomerPricingEffectivePricePrice implements \JsonSerializable
{
    public function __construct(
        /** The stored price: gross in channels whose prices include VAT, else net (minor units). */
        public readonly int $amount,
        /** Net unit price in minor units. */
        public readonly int $net,
        /** VAT per unit in minor units. */
        public readonly int $vat,
        /** Gross unit price (net + vat) in minor units. */
        public readonly int $gross,
        /** VAT rate as a fraction, e.g. 0.19 (display only). */
        public readonly float $vatRate,
        /** VAT rate in basis points, e.g. 1900; exact. */
        public readonly int $vatRateBp,
        public readonly string $currency,
        public readonly PriceLevel $source,
        /** The quantity break this price starts at. */
        public readonly int $minQuantity,
        public readonly string $sku,
        public readonly string $name,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['amount'],
            $data['net'],
            $data['vat'],
            $data['gross'],
            (float) $data['vatRate'],
            $data['vatRateBp'],
            $data['currency'],
            PriceLevel::from($data['source']),
            $data['minQuantity'],
            $data['sku'],
            $data['name'],
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['amount'] = $this->amount;
        $data['net'] = $this->net;
        $data['vat'] = $this->vat;
        $data['gross'] = $this->gross;
        $data['vatRate'] = $this->vatRate;
        $data['vatRateBp'] = $this->vatRateBp;
        $data['currency'] = $this->currency;
        $data['source'] = $this->source->value;
        $data['minQuantity'] = $this->minQuantity;
        $data['sku'] = $this->sku;
        $data['name'] = $this->name;
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
