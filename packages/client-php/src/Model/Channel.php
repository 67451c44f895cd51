<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class Channel implements \JsonSerializable
{
    public function __construct(
        /** Channel code, e.g. WEB_DE; send it as `X-Channel`. */
        public readonly string $code,
        public readonly string $name,
        public readonly string $currency,
        /** ISO 3166-1 alpha-2 country whose VAT applies. */
        public readonly string $taxCountry,
        /** True when stored amounts are gross (VAT included). */
        public readonly bool $pricesIncludeVat,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['code'],
            $data['name'],
            $data['currency'],
            $data['taxCountry'],
            $data['pricesIncludeVat'],
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['code'] = $this->code;
        $data['name'] = $this->name;
        $data['currency'] = $this->currency;
        $data['taxCountry'] = $this->taxCountry;
        $data['pricesIncludeVat'] = $this->pricesIncludeVat;
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
