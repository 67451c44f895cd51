<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class KeyExpiringAlertData implements \JsonSerializable
{
    public function __construct(
        public readonly string $keyId,
        public readonly ?string $identityId,
        public readonly string $keyName,
        /** The last valid day (YYYY-MM-DD, UTC). */
        public readonly string $expiresAt,
        public readonly int $daysLeft,
        /** The reminder lead time entered (7 or 1 by default). */
        public readonly int $leadDays,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['keyId'],
            $data['identityId'],
            $data['keyName'],
            $data['expiresAt'],
            $data['daysLeft'],
            $data['leadDays'],
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['keyId'] = $this->keyId;
        $data['identityId'] = $this->identityId;
        $data['keyName'] = $this->keyName;
        $data['expiresAt'] = $this->expiresAt;
        $data['daysLeft'] = $this->daysLeft;
        $data['leadDays'] = $this->leadDays;
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
