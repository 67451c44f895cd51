<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class OrderLineUnitPrice implements \JsonSerializable
{
    public function __construct(
        /** Minor units. */
        public readonly int $net,
        /** Minor units. */
        public readonly int $vat,
        /** Minor units. */
        public readonly int $gross,
        public readonly int $vatRateBp,
        public readonly PriceLevel $source,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['net'],
            $data['vat'],
            $data['gross'],
            $data['vatRateBp'],
            PriceLevel::from($data['source']),
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['net'] = $this->net;
        $data['vat'] = $this->vat;
        $data['gross'] = $this->gross;
        $data['vatRateBp'] = $this->vatRateBp;
        $data['source'] = $this->source->value;
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
