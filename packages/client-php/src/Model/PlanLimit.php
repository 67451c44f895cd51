<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

/** At most `limit` calls (cost units) per fixed window. */
final class PlanLimit implements \JsonSerializable
{
    public function __construct(
        /** Names the policy in `RateLimit-Policy`. */
        public readonly string $name,
        public readonly PlanLimitWindow $window,
        public readonly int $limit,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['name'],
            PlanLimitWindow::from($data['window']),
            $data['limit'],
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['name'] = $this->name;
        $data['window'] = $this->window->value;
        $data['limit'] = $this->limit;
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
