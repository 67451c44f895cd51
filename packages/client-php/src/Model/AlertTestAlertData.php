<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class AlertTestAlertData implements \JsonSerializable
{
    public function __construct(
        public readonly string $endpointId,
        public readonly string $endpointUrl,
        public readonly string $message,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['endpointId'],
            $data['endpointUrl'],
            $data['message'],
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['endpointId'] = $this->endpointId;
        $data['endpointUrl'] = $this->endpointUrl;
        $data['message'] = $this->message;
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
