<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class ProductImage implements \JsonSerializable
{
    public function __construct(
        /**
         * An `https` URL, or a root-relative path under `/v2/media/` on the API’s own origin (the gateway;
         * fetched with a key holding `article:r`, like any call).
         */
        public readonly string $url,
        /** Text alternative for people who cannot see the image; `""` marks a decorative image. */
        public readonly string $alt,
        /** Intrinsic width in pixels. */
        public readonly int $width,
        /** Intrinsic height in pixels. */
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
