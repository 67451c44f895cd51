<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

/** GraphQL over HTTP response: `data`, `errors`, or both. */
final class GraphqlResponse implements \JsonSerializable
{
    public function __construct(
        /** @var array<string, mixed>|null */
        public readonly ?array $data = null,
        /** @var list<GraphqlResponseError>|null */
        public readonly ?array $errors = null,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            data: $data['data'] ?? null,
            errors: (static fn ($v) => $v === null ? null : array_map(static fn ($i) => GraphqlResponseError::fromArray($i), $v))($data['errors'] ?? null),
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        if ($this->data !== null) {
            $data['data'] = $this->data === null ? null : (object) $this->data;
        }
        if ($this->errors !== null) {
            $data['errors'] = $this->errors === null ? null : array_map(static fn ($i) => $i->toArray(), $this->errors);
        }
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
