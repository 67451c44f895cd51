<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class GraphqlResponseError implements \JsonSerializable
{
    public function __construct(
        public readonly string $message,
        /** @var list<GraphqlResponseErrorLocation>|null */
        public readonly ?array $locations = null,
        /** @var list<string|int>|null */
        public readonly ?array $path = null,
        /**
         * Resolver errors carry the commerce error `code` here.
         * @var array<string, mixed>|null
         */
        public readonly ?array $extensions = null,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['message'],
            locations: (static fn ($v) => $v === null ? null : array_map(static fn ($i) => GraphqlResponseErrorLocation::fromArray($i), $v))($data['locations'] ?? null),
            path: $data['path'] ?? null,
            extensions: $data['extensions'] ?? null,
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['message'] = $this->message;
        if ($this->locations !== null) {
            $data['locations'] = $this->locations === null ? null : array_map(static fn ($i) => $i->toArray(), $this->locations);
        }
        if ($this->path !== null) {
            $data['path'] = $this->path;
        }
        if ($this->extensions !== null) {
            $data['extensions'] = $this->extensions === null ? null : (object) $this->extensions;
        }
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
