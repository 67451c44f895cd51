<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class TriggeredEvent implements \JsonSerializable
{
    public function __construct(
        /** The `evt_…` id: the `webhook-id` of its deliveries. */
        public readonly string $eventId,
        public readonly EventType $type,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['eventId'],
            EventType::from($data['type']),
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['eventId'] = $this->eventId;
        $data['type'] = $this->type->value;
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
