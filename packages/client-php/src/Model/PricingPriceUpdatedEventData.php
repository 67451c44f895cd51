<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class PricingPriceUpdatedEventData implements \JsonSerializable
{
    public function __construct(
        public readonly string $priceId,
        public readonly Price $old,
        public readonly Price $new,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['priceId'],
            Price::fromArray($data['old']),
            Price::fromArray($data['new']),
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['priceId'] = $this->priceId;
        $data['old'] = $this->old->toArray();
        $data['new'] = $this->new->toArray();
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
