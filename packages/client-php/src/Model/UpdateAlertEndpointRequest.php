<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class UpdateAlertEndpointRequest implements \JsonSerializable
{
    public function __construct(
        public readonly ?string $url = null,
        public readonly ?string $description = null,
        /** @var list<string>|null */
        public readonly ?array $eventTypes = null,
        /** @var list<string>|null */
        public readonly ?array $identityIds = null,
        public readonly ?bool $enabled = null,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            url: $data['url'] ?? null,
            description: $data['description'] ?? null,
            eventTypes: $data['eventTypes'] ?? null,
            identityIds: $data['identityIds'] ?? null,
            enabled: $data['enabled'] ?? null,
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        if ($this->url !== null) {
            $data['url'] = $this->url;
        }
        if ($this->description !== null) {
            $data['description'] = $this->description;
        }
        if ($this->eventTypes !== null) {
            $data['eventTypes'] = $this->eventTypes;
        }
        if ($this->identityIds !== null) {
            $data['identityIds'] = $this->identityIds;
        }
        if ($this->enabled !== null) {
            $data['enabled'] = $this->enabled;
        }
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
