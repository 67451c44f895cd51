<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class CreditsLowAlertData implements \JsonSerializable
{
    public function __construct(
        public readonly string $keyId,
        public readonly ?string $identityId,
        public readonly CreditsExhaustedAlertDataSubject $subject,
        public readonly int $remaining,
        public readonly int $lowAt,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['keyId'],
            $data['identityId'],
            CreditsExhaustedAlertDataSubject::fromArray($data['subject']),
            $data['remaining'],
            $data['lowAt'],
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['keyId'] = $this->keyId;
        $data['identityId'] = $this->identityId;
        $data['subject'] = $this->subject->toArray();
        $data['remaining'] = $this->remaining;
        $data['lowAt'] = $this->lowAt;
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
