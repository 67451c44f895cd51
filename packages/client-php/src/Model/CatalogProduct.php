<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class CatalogProduct implements \JsonSerializable
{
    public function __construct(
        public readonly string $id,
        public readonly string $sku,
        public readonly string $name,
        public readonly TaxClass $taxClass,
        /**
         * In display order: the images set with `PUT /v2/catalog/products/{sku}/images`, else one generated
         * image (an SVG with the product’s initials).
         * @var list<ProductImage>
         */
        public readonly array $images,
        public readonly UnitPrice $price,
        public readonly CatalogProductStock $stock,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['id'],
            $data['sku'],
            $data['name'],
            TaxClass::from($data['taxClass']),
            array_map(static fn ($i) => ProductImage::fromArray($i), $data['images']),
            UnitPrice::fromArray($data['price']),
            CatalogProductStock::fromArray($data['stock']),
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['id'] = $this->id;
        $data['sku'] = $this->sku;
        $data['name'] = $this->name;
        $data['taxClass'] = $this->taxClass->value;
        $data['images'] = array_map(static fn ($i) => $i->toArray(), $this->images);
        $data['price'] = $this->price->toArray();
        $data['stock'] = $this->stock->toArray();
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
