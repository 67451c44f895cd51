<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

/**
 * Calls per outcome in the bucket: every outcome (0 when none), or only the one asked with `outcome`.
 * `VALID` admitted; `RATE_LIMITED`, `QUOTA_EXCEEDED`, `CREDITS_EXHAUSTED` refused by a limit;
 * `FORBIDDEN_SCOPE`, `FORBIDDEN_IP` refused by the key’s checks; `EXPIRED`, `REVOKED` (a revoked key
 * or a closed secret), `INVALID_SECRET` (a wrong secret on this key’s prefix) refused before the
 * call was authenticated; `UPSTREAM_ERROR` a 5xx from the upstream.
 */
final class AnalyticsSeriesDataItemOutcomes implements \JsonSerializable
{
    public function __construct(
        public readonly ?int $VALID = null,
        public readonly ?int $RATE_LIMITED = null,
        public readonly ?int $QUOTA_EXCEEDED = null,
        public readonly ?int $CREDITS_EXHAUSTED = null,
        public readonly ?int $FORBIDDEN_SCOPE = null,
        public readonly ?int $FORBIDDEN_IP = null,
        public readonly ?int $EXPIRED = null,
        public readonly ?int $REVOKED = null,
        public readonly ?int $INVALID_SECRET = null,
        public readonly ?int $UPSTREAM_ERROR = null,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            VALID: $data['VALID'] ?? null,
            RATE_LIMITED: $data['RATE_LIMITED'] ?? null,
            QUOTA_EXCEEDED: $data['QUOTA_EXCEEDED'] ?? null,
            CREDITS_EXHAUSTED: $data['CREDITS_EXHAUSTED'] ?? null,
            FORBIDDEN_SCOPE: $data['FORBIDDEN_SCOPE'] ?? null,
            FORBIDDEN_IP: $data['FORBIDDEN_IP'] ?? null,
            EXPIRED: $data['EXPIRED'] ?? null,
            REVOKED: $data['REVOKED'] ?? null,
            INVALID_SECRET: $data['INVALID_SECRET'] ?? null,
            UPSTREAM_ERROR: $data['UPSTREAM_ERROR'] ?? null,
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        if ($this->VALID !== null) {
            $data['VALID'] = $this->VALID;
        }
        if ($this->RATE_LIMITED !== null) {
            $data['RATE_LIMITED'] = $this->RATE_LIMITED;
        }
        if ($this->QUOTA_EXCEEDED !== null) {
            $data['QUOTA_EXCEEDED'] = $this->QUOTA_EXCEEDED;
        }
        if ($this->CREDITS_EXHAUSTED !== null) {
            $data['CREDITS_EXHAUSTED'] = $this->CREDITS_EXHAUSTED;
        }
        if ($this->FORBIDDEN_SCOPE !== null) {
            $data['FORBIDDEN_SCOPE'] = $this->FORBIDDEN_SCOPE;
        }
        if ($this->FORBIDDEN_IP !== null) {
            $data['FORBIDDEN_IP'] = $this->FORBIDDEN_IP;
        }
        if ($this->EXPIRED !== null) {
            $data['EXPIRED'] = $this->EXPIRED;
        }
        if ($this->REVOKED !== null) {
            $data['REVOKED'] = $this->REVOKED;
        }
        if ($this->INVALID_SECRET !== null) {
            $data['INVALID_SECRET'] = $this->INVALID_SECRET;
        }
        if ($this->UPSTREAM_ERROR !== null) {
            $data['UPSTREAM_ERROR'] = $this->UPSTREAM_ERROR;
        }
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
