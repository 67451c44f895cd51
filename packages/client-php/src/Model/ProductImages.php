<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class ProductImages implements \JsonSerializable
{
    public function __construct(
        public readonly string $sku,
        /**
         * In display order: the images set with `PUT /v2/catalog/products/{sku}/images`, else one generated
         * image (an SVG with the product’s initials).
         * @var list<ProductImage>
         */
        public readonly array $images,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['sku'],
            array_map(static fn ($i) => ProductImage::fromArray($i), $data['images']),
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['sku'] = $this->sku;
        $data['images'] = array_map(static fn ($i) => $i->toArray(), $this->images);
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
