<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class CustomerPricingEffectivePrice implements \JsonSerializable
{
    public function __construct(
        /** Channel code, e.g. WEB_DE; send it as `X-Channel`. */
        public readonly string $channel,
        public readonly string $currency,
        public readonly bool $pricesIncludeVat,
        /**
         * The page’s products with agreement or tier prices for this customer, priced at quantity 1.
         * @var list<CustomerPricingEffectivePricePrice>
         */
        public readonly array $prices,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['channel'],
            $data['currency'],
            $data['pricesIncludeVat'],
            array_map(static fn ($i) => CustomerPricingEffectivePricePrice::fromArray($i), $data['prices']),
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['channel'] = $this->channel;
        $data['currency'] = $this->currency;
        $data['pricesIncludeVat'] = $this->pricesIncludeVat;
        $data['prices'] = array_map(static fn ($i) => $i->toArray(), $this->prices);
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
