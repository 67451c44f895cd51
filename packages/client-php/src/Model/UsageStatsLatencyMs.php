<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class UsageStatsLatencyMs implements \JsonSerializable
{
    public function __construct(
        public readonly float $mean,
        public readonly float $p50,
        public readonly float $p95,
        public readonly float $p99,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            (float) $data['mean'],
            (float) $data['p50'],
            (float) $data['p95'],
            (float) $data['p99'],
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['mean'] = $this->mean;
        $data['p50'] = $this->p50;
        $data['p95'] = $this->p95;
        $data['p99'] = $this->p99;
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
