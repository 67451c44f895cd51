<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class ProductUpdatedEventData implements \JsonSerializable
{
    public function __construct(
        public readonly string $productId,
        public readonly string $sku,
        /**
         * Fields whose value differs between old and new (today only `images`).
         * @var list<ProductUpdatedEventDataChangedItem>
         */
        public readonly array $changed,
        public readonly ProductUpdatedEventDataOld $old,
        public readonly ProductUpdatedEventDataOld $new,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['productId'],
            $data['sku'],
            array_map(static fn ($i) => ProductUpdatedEventDataChangedItem::from($i), $data['changed']),
            ProductUpdatedEventDataOld::fromArray($data['old']),
            ProductUpdatedEventDataOld::fromArray($data['new']),
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['productId'] = $this->productId;
        $data['sku'] = $this->sku;
        $data['changed'] = array_map(static fn ($i) => $i->value, $this->changed);
        $data['old'] = $this->old->toArray();
        $data['new'] = $this->new->toArray();
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
