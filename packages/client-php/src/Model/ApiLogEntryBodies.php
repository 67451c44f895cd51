<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

/**
 * Test keys only (the sandbox): the request and response bodies, JSON or text only (null otherwise, or
 * without a body). Never a header. Live keys keep no bodies.
 */
final class ApiLogEntryBodies implements \JsonSerializable
{
    public function __construct(
        public readonly ?LoggedBody $request,
        public readonly ?LoggedBody $response,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            (static fn ($v) => $v === null ? null : LoggedBody::fromArray($v))($data['request']),
            (static fn ($v) => $v === null ? null : LoggedBody::fromArray($v))($data['response']),
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['request'] = $this->request?->toArray();
        $data['response'] = $this->response?->toArray();
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
