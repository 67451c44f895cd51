<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class GraphqlRequest implements \JsonSerializable
{
    public function __construct(
        /** The GraphQL document (queries only; no mutations). */
        public readonly string $query,
        /** @var array<string, mixed>|null */
        public readonly ?array $variables = null,
        public readonly ?string $operationName = null,
        /** @var array<string, mixed>|null */
        public readonly ?array $extensions = null,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['query'],
            variables: $data['variables'] ?? null,
            operationName: $data['operationName'] ?? null,
            extensions: $data['extensions'] ?? null,
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['query'] = $this->query;
        if ($this->variables !== null) {
            $data['variables'] = $this->variables === null ? null : (object) $this->variables;
        }
        if ($this->operationName !== null) {
            $data['operationName'] = $this->operationName;
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
