<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class Credits implements \JsonSerializable
{
    public function __construct(
        public readonly int $remaining,
        public readonly ?CreditsRefill $refill,
        /** The next refill (UTC), or null when none. */
        public readonly ?\DateTimeImmutable $refillsAt,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['remaining'],
            (static fn ($v) => $v === null ? null : CreditsRefill::fromArray($v))($data['refill']),
            (static fn ($v) => $v === null ? null : new \DateTimeImmutable($v))($data['refillsAt']),
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['remaining'] = $this->remaining;
        $data['refill'] = $this->refill?->toArray();
        $data['refillsAt'] = $this->refillsAt?->format('Y-m-d\TH:i:s.vP');
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
