<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class AlertKeyChangeData implements \JsonSerializable
{
    public function __construct(
        public readonly string $keyId,
        public readonly string $keyName,
        public readonly ?string $identityId,
        /** The activity entry of the change (`GET /v2/auth/keys/{id}/activity`). */
        public readonly string $activityId,
        public readonly ActivityEntryActor $actor,
        /** ISO 8601 instant (UTC). */
        public readonly \DateTimeImmutable $at,
        /** @var array<string, mixed>|null */
        public readonly ?array $before,
        /** @var array<string, mixed>|null */
        public readonly ?array $after,
        /** @var array<string, mixed> */
        public readonly array $details,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['keyId'],
            $data['keyName'],
            $data['identityId'],
            $data['activityId'],
            ActivityEntryActor::fromArray($data['actor']),
            new \DateTimeImmutable($data['at']),
            $data['before'],
            $data['after'],
            $data['details'],
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['keyId'] = $this->keyId;
        $data['keyName'] = $this->keyName;
        $data['identityId'] = $this->identityId;
        $data['activityId'] = $this->activityId;
        $data['actor'] = $this->actor->toArray();
        $data['at'] = $this->at->format('Y-m-d\TH:i:s.vP');
        $data['before'] = $this->before === null ? null : (object) $this->before;
        $data['after'] = $this->after === null ? null : (object) $this->after;
        $data['details'] = (object) $this->details;
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
