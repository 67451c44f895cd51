<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class CreditsExhaustedAlertDataSubject implements \JsonSerializable
{
    public function __construct(
        public readonly CreditsExhaustedAlertDataSubjectType $type,
        public readonly string $id,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            CreditsExhaustedAlertDataSubjectType::from($data['type']),
            $data['id'],
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['type'] = $this->type->value;
        $data['id'] = $this->id;
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
