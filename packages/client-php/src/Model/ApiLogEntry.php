<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class ApiLogEntry implements \JsonSerializable
{
    public function __construct(
        /** The gateway request id (`req_…`, also sent as X-Request-Id). */
        public readonly string $id,
        public readonly string $keyId,
        public readonly string $secretId,
        /** ISO 8601 instant (UTC). */
        public readonly \DateTimeImmutable $at,
        public readonly string $method,
        public readonly string $path,
        public readonly int $status,
        public readonly float $latencyMs,
        public readonly string $clientIp,
        /**
         * The W3C trace id of the call, when the gateway traced and sampled it: find its trace in your tracing
         * backend.
         */
        public readonly ?string $traceId = null,
        /**
         * Test keys only (the sandbox): the request and response bodies, JSON or text only (null otherwise, or
         * without a body). Never a header. Live keys keep no bodies.
         */
        public readonly ?ApiLogEntryBodies $bodies = null,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['id'],
            $data['keyId'],
            $data['secretId'],
            new \DateTimeImmutable($data['at']),
            $data['method'],
            $data['path'],
            $data['status'],
            (float) $data['latencyMs'],
            $data['clientIp'],
            traceId: $data['traceId'] ?? null,
            bodies: (static fn ($v) => $v === null ? null : ApiLogEntryBodies::fromArray($v))($data['bodies'] ?? null),
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['id'] = $this->id;
        $data['keyId'] = $this->keyId;
        $data['secretId'] = $this->secretId;
        $data['at'] = $this->at->format('Y-m-d\TH:i:s.vP');
        $data['method'] = $this->method;
        $data['path'] = $this->path;
        $data['status'] = $this->status;
        $data['latencyMs'] = $this->latencyMs;
        $data['clientIp'] = $this->clientIp;
        if ($this->traceId !== null) {
            $data['traceId'] = $this->traceId;
        }
        if ($this->bodies !== null) {
            $data['bodies'] = $this->bodies?->toArray();
        }
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
