<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class CreditsOperation implements \JsonSerializable
{
    public function __construct(
        public readonly ?int $set = null,
        public readonly ?int $increment = null,
        public readonly ?int $decrement = null,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            set: $data['set'] ?? null,
            increment: $data['increment'] ?? null,
            decrement: $data['decrement'] ?? null,
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        if ($this->set !== null) {
            $data['set'] = $this->set;
        }
        if ($this->increment !== null) {
            $data['increment'] = $this->increment;
        }
        if ($this->decrement !== null) {
            $data['decrement'] = $this->decrement;
        }
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
