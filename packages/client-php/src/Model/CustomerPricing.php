<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class CustomerPricing implements \JsonSerializable
{
    public function __construct(
        public readonly Customer $customer,
        /** @var list<Agreement> */
        public readonly array $agreements,
        /** @var list<CustomerPricingEffectivePrice> */
        public readonly array $effectivePrices,
        /** Opaque cursor of the next page (pass it as `cursor`), or null on the last page. */
        public readonly ?string $nextCursor,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            Customer::fromArray($data['customer']),
            array_map(static fn ($i) => Agreement::fromArray($i), $data['agreements']),
            array_map(static fn ($i) => CustomerPricingEffectivePrice::fromArray($i), $data['effectivePrices']),
            $data['nextCursor'],
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['customer'] = $this->customer->toArray();
        $data['agreements'] = array_map(static fn ($i) => $i->toArray(), $this->agreements);
        $data['effectivePrices'] = array_map(static fn ($i) => $i->toArray(), $this->effectivePrices);
        $data['nextCursor'] = $this->nextCursor;
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
