<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class UpdateIdentityRequestCredits implements \JsonSerializable
{
    public function __construct(
        public readonly ?int $lowAt,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['lowAt'],
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['lowAt'] = $this->lowAt;
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
