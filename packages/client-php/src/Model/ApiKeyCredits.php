<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class ApiKeyCredits implements \JsonSerializable
{
    public function __construct(
        public readonly ?CreditsRefill $refill,
        /**
         * A `credits.low` alert is sent when the balance falls below this level (once per refill period).
         * Absent: none, or the plan’s for a key or an identity.
         */
        public readonly ?int $lowAt = null,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            (static fn ($v) => $v === null ? null : CreditsRefill::fromArray($v))($data['refill']),
            lowAt: $data['lowAt'] ?? null,
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['refill'] = $this->refill?->toArray();
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
