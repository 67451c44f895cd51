<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class AlertAttempt implements \JsonSerializable
{
    public function __construct(
        /** ISO 8601 instant (UTC). */
        public readonly \DateTimeImmutable $startedAt,
        /** The `webhook-timestamp` sent (Unix seconds). */
        public readonly int $webhookTimestamp,
        public readonly ?int $statusCode,
        public readonly ?float $durationMs,
        /** At most 1 KiB of the response body. */
        public readonly ?string $response,
        public readonly ?string $error,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            new \DateTimeImmutable($data['startedAt']),
            $data['webhookTimestamp'],
            $data['statusCode'],
            (static fn ($v) => $v === null ? null : (float) $v)($data['durationMs']),
            $data['response'],
            $data['error'],
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['startedAt'] = $this->startedAt->format('Y-m-d\TH:i:s.vP');
        $data['webhookTimestamp'] = $this->webhookTimestamp;
        $data['statusCode'] = $this->statusCode;
        $data['durationMs'] = $this->durationMs;
        $data['response'] = $this->response;
        $data['error'] = $this->error;
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
