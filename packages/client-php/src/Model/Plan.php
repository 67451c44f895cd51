<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class Plan implements \JsonSerializable
{
    public function __construct(
        /** `plan_…` */
        public readonly string $id,
        public readonly string $name,
        /** @var list<PlanLimit> */
        public readonly array $limits,
        /** @var list<PlanQuota> */
        public readonly array $quotas,
        public readonly ?PlanCredits $credits,
        /** ISO 8601 instant (UTC). */
        public readonly \DateTimeImmutable $createdAt,
        /** ISO 8601 instant (UTC). */
        public readonly \DateTimeImmutable $updatedAt,
        /** Bumped on every change. */
        public readonly int $version,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['id'],
            $data['name'],
            array_map(static fn ($i) => PlanLimit::fromArray($i), $data['limits']),
            array_map(static fn ($i) => PlanQuota::fromArray($i), $data['quotas']),
            (static fn ($v) => $v === null ? null : PlanCredits::fromArray($v))($data['credits']),
            new \DateTimeImmutable($data['createdAt']),
            new \DateTimeImmutable($data['updatedAt']),
            $data['version'],
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['id'] = $this->id;
        $data['name'] = $this->name;
        $data['limits'] = array_map(static fn ($i) => $i->toArray(), $this->limits);
        $data['quotas'] = array_map(static fn ($i) => $i->toArray(), $this->quotas);
        $data['credits'] = $this->credits?->toArray();
        $data['createdAt'] = $this->createdAt->format('Y-m-d\TH:i:s.vP');
        $data['updatedAt'] = $this->updatedAt->format('Y-m-d\TH:i:s.vP');
        $data['version'] = $this->version;
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
