<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class IdentityWithKeys implements \JsonSerializable
{
    public function __construct(
        /** `idt_…` */
        public readonly string $id,
        /** Your own id of the customer; unique per environment. */
        public readonly string $externalId,
        public readonly Environment $environment,
        public readonly ?string $planId,
        /** @var array<string, mixed> */
        public readonly array $meta,
        /**
         * Overrides of the plan’s limits (by name), shared by its keys.
         * @var list<PlanLimit>
         */
        public readonly array $limits,
        /**
         * Overrides of the plan’s quotas (by period).
         * @var list<PlanQuota>
         */
        public readonly array $quotas,
        public readonly ?ApiKeyCredits $credits,
        /** ISO 8601 instant (UTC). */
        public readonly \DateTimeImmutable $createdAt,
        /** ISO 8601 instant (UTC). */
        public readonly \DateTimeImmutable $updatedAt,
        /** Bumped on every change. */
        public readonly int $version,
        /**
         * The identity’s keys (any status), newest first.
         * @var list<ApiKey>
         */
        public readonly array $keys,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['id'],
            $data['externalId'],
            Environment::from($data['environment']),
            $data['planId'],
            $data['meta'],
            array_map(static fn ($i) => PlanLimit::fromArray($i), $data['limits']),
            array_map(static fn ($i) => PlanQuota::fromArray($i), $data['quotas']),
            (static fn ($v) => $v === null ? null : ApiKeyCredits::fromArray($v))($data['credits']),
            new \DateTimeImmutable($data['createdAt']),
            new \DateTimeImmutable($data['updatedAt']),
            $data['version'],
            array_map(static fn ($i) => ApiKey::fromArray($i), $data['keys']),
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['id'] = $this->id;
        $data['externalId'] = $this->externalId;
        $data['environment'] = $this->environment->value;
        $data['planId'] = $this->planId;
        $data['meta'] = (object) $this->meta;
        $data['limits'] = array_map(static fn ($i) => $i->toArray(), $this->limits);
        $data['quotas'] = array_map(static fn ($i) => $i->toArray(), $this->quotas);
        $data['credits'] = $this->credits?->toArray();
        $data['createdAt'] = $this->createdAt->format('Y-m-d\TH:i:s.vP');
        $data['updatedAt'] = $this->updatedAt->format('Y-m-d\TH:i:s.vP');
        $data['version'] = $this->version;
        $data['keys'] = array_map(static fn ($i) => $i->toArray(), $this->keys);
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
