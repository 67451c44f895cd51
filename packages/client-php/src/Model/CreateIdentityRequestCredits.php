<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class CreateIdentityRequestCredits implements \JsonSerializable
{
    public function __construct(
        public readonly int $remaining,
        public readonly ?CreateIdentityRequestCreditsRefill $refill = null,
        public readonly ?int $lowAt = null,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['remaining'],
            refill: (static fn ($v) => $v === null ? null : CreateIdentityRequestCreditsRefill::fromArray($v))($data['refill'] ?? null),
            lowAt: $data['lowAt'] ?? null,
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['remaining'] = $this->remaining;
        if ($this->refill !== null) {
            $data['refill'] = $this->refill?->toArray();
        }
        if ($this->lowAt !== null) {
            $data['lowAt'] = $this->lowAt;
        }
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
