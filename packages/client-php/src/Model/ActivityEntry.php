<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class ActivityEntry implements \JsonSerializable
{
    public function __construct(
        /** `act_…` */
        public readonly string $id,
        public readonly string $keyId,
        public readonly Environment $environment,
        public readonly ActivityEntryAction $action,
        public readonly ActivityEntryActor $actor,
        /** ISO 8601 instant (UTC). */
        public readonly \DateTimeImmutable $at,
        public readonly ?string $sourceIp,
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
            $data['id'],
            $data['keyId'],
            Environment::from($data['environment']),
            ActivityEntryAction::from($data['action']),
            ActivityEntryActor::fromArray($data['actor']),
            new \DateTimeImmutable($data['at']),
            $data['sourceIp'],
            $data['before'],
            $data['after'],
            $data['details'],
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['id'] = $this->id;
        $data['keyId'] = $this->keyId;
        $data['environment'] = $this->environment->value;
        $data['action'] = $this->action->value;
        $data['actor'] = $this->actor->toArray();
        $data['at'] = $this->at->format('Y-m-d\TH:i:s.vP');
        $data['sourceIp'] = $this->sourceIp;
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
