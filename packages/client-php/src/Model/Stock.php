<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class Stock implements \JsonSerializable
{
    public function __construct(
        public readonly string $sku,
        /** Units in the warehouse. */
        public readonly int $onHand,
        /** Units held by placed orders. */
        public readonly int $allocated,
        /** onHand − allocated: what can still be ordered. */
        public readonly int $available,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['sku'],
            $data['onHand'],
            $data['allocated'],
            $data['available'],
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['sku'] = $this->sku;
        $data['onHand'] = $this->onHand;
        $data['allocated'] = $this->allocated;
        $data['available'] = $this->available;
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
