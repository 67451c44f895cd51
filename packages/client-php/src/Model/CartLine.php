<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class CartLine implements \JsonSerializable
{
    public function __construct(
        public readonly string $sku,
        public readonly string $productId,
        public readonly string $name,
        public readonly int $qty,
        /** Unit price at the line quantity (breaks apply); null if no longer sold. */
        public readonly ?UnitPrice $unitPrice,
        /** unitPrice × qty; null if no longer sold. */
        public readonly ?VatSplit $total,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['sku'],
            $data['productId'],
            $data['name'],
            $data['qty'],
            (static fn ($v) => $v === null ? null : UnitPrice::fromArray($v))($data['unitPrice']),
            (static fn ($v) => $v === null ? null : VatSplit::fromArray($v))($data['total']),
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['sku'] = $this->sku;
        $data['productId'] = $this->productId;
        $data['name'] = $this->name;
        $data['qty'] = $this->qty;
        $data['unitPrice'] = $this->unitPrice?->toArray();
        $data['total'] = $this->total?->toArray();
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
