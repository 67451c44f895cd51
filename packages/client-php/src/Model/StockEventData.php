<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class StockEventData implements \JsonSerializable
{
    public function __construct(
        public readonly string $sku,
        public readonly string $productId,
        public readonly StockEventDataReason $reason,
        /** The order behind an `order.*` reason, else null. */
        public readonly ?string $orderId,
        public readonly StockLevel $old,
        public readonly StockLevel $new,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['sku'],
            $data['productId'],
            StockEventDataReason::from($data['reason']),
            $data['orderId'],
            StockLevel::fromArray($data['old']),
            StockLevel::fromArray($data['new']),
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['sku'] = $this->sku;
        $data['productId'] = $this->productId;
        $data['reason'] = $this->reason->value;
        $data['orderId'] = $this->orderId;
        $data['old'] = $this->old->toArray();
        $data['new'] = $this->new->toArray();
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
