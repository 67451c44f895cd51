<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class PricingVatRateUpdatedEventData implements \JsonSerializable
{
    public function __construct(
        public readonly string $country,
        public readonly string $taxClass,
        /** Null when the country had no rate for the tax class before. */
        public readonly ?PricingVatRateUpdatedEventDataOld $old,
        public readonly PricingVatRateUpdatedEventDataOld $new,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['country'],
            $data['taxClass'],
            (static fn ($v) => $v === null ? null : PricingVatRateUpdatedEventDataOld::fromArray($v))($data['old']),
            PricingVatRateUpdatedEventDataOld::fromArray($data['new']),
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['country'] = $this->country;
        $data['taxClass'] = $this->taxClass;
        $data['old'] = $this->old?->toArray();
        $data['new'] = $this->new->toArray();
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
