<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class ApiKeyRotation implements \JsonSerializable
{
    public function __construct(
        /** True while an older secret still authenticates. */
        public readonly bool $inProgress,
        /**
         * Secrets newest first, with call counts per secret.
         * @var list<KeySecret>
         */
        public readonly array $secrets,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['inProgress'],
            array_map(static fn ($i) => KeySecret::fromArray($i), $data['secrets']),
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['inProgress'] = $this->inProgress;
        $data['secrets'] = array_map(static fn ($i) => $i->toArray(), $this->secrets);
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
