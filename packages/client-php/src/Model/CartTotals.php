<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class CartTotals implements \JsonSerializable
{
    public function __construct(
        /** Net amount in minor units. */
        public readonly int $net,
        /** VAT in minor units. */
        public readonly int $vat,
        /** Gross amount (net + vat) in minor units. */
        public readonly int $gross,
        public readonly string $currency,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['net'],
            $data['vat'],
            $data['gross'],
            $data['currency'],
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['net'] = $this->net;
        $data['vat'] = $this->vat;
        $data['gross'] = $this->gross;
        $data['currency'] = $this->currency;
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
