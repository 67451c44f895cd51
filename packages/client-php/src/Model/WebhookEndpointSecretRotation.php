<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class WebhookEndpointSecretRotation implements \JsonSerializable
{
    public function __construct(
        /** ISO 8601 instant (UTC). */
        public readonly \DateTimeImmutable $previousSecretExpiresAt,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            new \DateTimeImmutable($data['previousSecretExpiresAt']),
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['previousSecretExpiresAt'] = $this->previousSecretExpiresAt->format('Y-m-d\TH:i:s.vP');
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
