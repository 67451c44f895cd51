<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class PeriodUsage implements \JsonSerializable
{
    public function __construct(
        /** As asked: `2026-11`, `2026-W48` or `2026-11-28`. */
        public readonly string $period,
        /** First day (UTC), YYYY-MM-DD. */
        public readonly string $from,
        /** The day after the last, YYYY-MM-DD. */
        public readonly string $to,
        public readonly PeriodUsageTotal $total,
        /** @var array<string, mixed> */
        public readonly array $outcomes,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['period'],
            $data['from'],
            $data['to'],
            PeriodUsageTotal::fromArray($data['total']),
            $data['outcomes'],
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['period'] = $this->period;
        $data['from'] = $this->from;
        $data['to'] = $this->to;
        $data['total'] = $this->total->toArray();
        $data['outcomes'] = (object) $this->outcomes;
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
