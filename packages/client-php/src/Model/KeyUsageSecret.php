<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class KeyUsageSecret implements \JsonSerializable
{
    public function __construct(
        public readonly int $calls,
        public readonly int $errors4xx,
        public readonly int $errors5xx,
        /** Gateway-measured latency in ms; null without calls. */
        public readonly ?UsageStatsLatencyMs $latencyMs,
        /** ISO 8601 instant (UTC). */
        public readonly ?\DateTimeImmutable $lastCallAt,
        public readonly string $secretId,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['calls'],
            $data['errors4xx'],
            $data['errors5xx'],
            (static fn ($v) => $v === null ? null : UsageStatsLatencyMs::fromArray($v))($data['latencyMs']),
            (static fn ($v) => $v === null ? null : new \DateTimeImmutable($v))($data['lastCallAt']),
            $data['secretId'],
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['calls'] = $this->calls;
        $data['errors4xx'] = $this->errors4xx;
        $data['errors5xx'] = $this->errors5xx;
        $data['latencyMs'] = $this->latencyMs?->toArray();
        $data['lastCallAt'] = $this->lastCallAt?->format('Y-m-d\TH:i:s.vP');
        $data['secretId'] = $this->secretId;
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
