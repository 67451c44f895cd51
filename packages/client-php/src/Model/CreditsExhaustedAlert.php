<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class CreditsExhaustedAlert implements \JsonSerializable
{
    public function __construct(
        /** Event id (`evt_…`); the same event has the same id on every endpoint. */
        public readonly string $id,
        public readonly string $type,
        /** When the event was recorded. */
        public readonly \DateTimeImmutable $createdAt,
        /** The key’s environment; null for a test alert. */
        public readonly ?Environment $environment,
        public readonly CreditsExhaustedAlertData $data,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['id'],
            $data['type'],
            new \DateTimeImmutable($data['createdAt']),
            (static fn ($v) => $v === null ? null : Environment::from($v))($data['environment']),
            CreditsExhaustedAlertData::fromArray($data['data']),
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['id'] = $this->id;
        $data['type'] = $this->type;
        $data['createdAt'] = $this->createdAt->format('Y-m-d\TH:i:s.vP');
        $data['environment'] = $this->environment?->value;
        $data['data'] = $this->data->toArray();
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
