<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class KeyExpiredAlertData implements \JsonSerializable
{
    public function __construct(
        public readonly string $keyId,
        public readonly ?string $identityId,
        public readonly string $keyName,
        public readonly string $expiresAt,
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
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
