<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

/**
 * RFC 9457 problem details (`application/problem+json`). `type` names the problem (see
 * `x-problem-types`); extension members such as `requiredScope` or `retryAfter` add facts. Clients
 * ignore members they do not know.
 */
final class Problem implements \JsonSerializable
{
    public function __construct(
        /** https://keygate.dev/problems/<kebab-code> */
        public readonly string $type,
        public readonly string $title,
        public readonly int $status,
        /** What went wrong and what to do, for a person. */
        public readonly string $detail,
        /** The stable UPPER_SNAKE code the `type` URI is made from. */
        public readonly string $code,
        /** The gateway request id (`req_…`) when the gateway answered. */
        public readonly ?string $instance = null,
        /** INSUFFICIENT_SCOPE: the scope the call needs. */
        public readonly ?string $requiredScope = null,
        /** RATE_LIMITED, IDEMPOTENCY_KEY_IN_USE: seconds to wait. */
        public readonly ?int $retryAfter = null,
        /** @var list<FieldError>|null */
        public readonly ?array $errors = null,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['type'],
            $data['title'],
            $data['status'],
            $data['detail'],
            $data['code'],
            instance: $data['instance'] ?? null,
            requiredScope: $data['requiredScope'] ?? null,
            retryAfter: $data['retryAfter'] ?? null,
            errors: (static fn ($v) => $v === null ? null : array_map(static fn ($i) => FieldError::fromArray($i), $v))($data['errors'] ?? null),
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['type'] = $this->type;
        $data['title'] = $this->title;
        $data['status'] = $this->status;
        $data['detail'] = $this->detail;
        $data['code'] = $this->code;
        if ($this->instance !== null) {
            $data['instance'] = $this->instance;
        }
        if ($this->requiredScope !== null) {
            $data['requiredScope'] = $this->requiredScope;
        }
        if ($this->retryAfter !== null) {
            $data['retryAfter'] = $this->retryAfter;
        }
        if ($this->errors !== null) {
            $data['errors'] = $this->errors === null ? null : array_map(static fn ($i) => $i->toArray(), $this->errors);
        }
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
