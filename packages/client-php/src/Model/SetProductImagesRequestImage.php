<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class SetProductImagesRequestImage implements \JsonSerializable
{
    public function __construct(
        public readonly string $url,
        public readonly string $alt,
        public readonly int $width,
        public readonly int $height,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['url'],
            $data['alt'],
            $data['width'],
            $data['height'],
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['url'] = $this->url;
        $data['alt'] = $this->alt;
        $data['width'] = $this->width;
        $data['height'] = $this->height;
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
