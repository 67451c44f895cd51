<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class AlertDeliveryPage implements \JsonSerializable
{
    public function __construct(
        /** @var list<AlertDelivery> */
        public readonly array $data,
        /** Opaque cursor of the next page (pass it as `cursor`), or null on the last page. */
        public readonly ?string $nextCursor,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            array_map(static fn ($i) => AlertDelivery::fromArray($i), $data['data']),
            $data['nextCursor'],
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['data'] = array_map(static fn ($i) => $i->toArray(), $this->data);
        $data['nextCursor'] = $this->nextCursor;
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
