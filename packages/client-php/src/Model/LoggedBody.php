<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class LoggedBody implements \JsonSerializable
{
    public function __construct(
        public readonly string $contentType,
        /**
         * The body as UTF-8 text, at most 16 KiB; secrets (`secret` members, `whsec_…`, keygate tokens)
         * replaced by `[redacted]`.
         */
        public readonly string $text,
        /** The body was longer than 16 KiB and is cut. */
        public readonly bool $truncated,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['contentType'],
            $data['text'],
            $data['truncated'],
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['contentType'] = $this->contentType;
        $data['text'] = $this->text;
        $data['truncated'] = $this->truncated;
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
