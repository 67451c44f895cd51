<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

/**
 * The balance is set back to `amount` daily at 00:00 UTC, or monthly at 00:00 UTC of `day` (default 1;
 * the month’s last day when shorter).
 */
final class CreditsRefill implements \JsonSerializable
{
    public function __construct(
        public readonly CreditsRefillInterval $interval,
        public readonly int $amount,
        public readonly ?int $day = null,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            CreditsRefillInterval::from($data['interval']),
            $data['amount'],
            day: $data['day'] ?? null,
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['interval'] = $this->interval->value;
        $data['amount'] = $this->amount;
        if ($this->day !== null) {
            $data['day'] = $this->day;
        }
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
