<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class ProductDetail implements \JsonSerializable
{
    public function __construct(
        /** The channel code the prices are for. */
        public readonly string $channel,
        public readonly string $currency,
        public readonly bool $pricesIncludeVat,
        /** The customer whose prices apply, or null. */
        public readonly ?string $customer,
        public readonly CatalogProduct $data,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['channel'],
            $data['currency'],
            $data['pricesIncludeVat'],
            $data['customer'],
            CatalogProduct::fromArray($data['data']),
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['channel'] = $this->channel;
        $data['currency'] = $this->currency;
        $data['pricesIncludeVat'] = $this->pricesIncludeVat;
        $data['customer'] = $this->customer;
        $data['data'] = $this->data->toArray();
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
