<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class ApiKeyWithSecret implements \JsonSerializable
{
    public function __construct(
        /** `key_…` */
        public readonly string $id,
        /** The displayed prefix of the newest secret, e.g. `kg_live_7Hq2xPab`. */
        public readonly string $prefix,
        public readonly string $name,
        public readonly Environment $environment,
        /** @var list<Scope> */
        public readonly array $scopes,
        /** Last valid day (YYYY-MM-DD, through 23:59:59.999 UTC); null: no expiry. */
        public readonly ?string $expiresAt,
        /**
         * IPv4/IPv6 addresses and CIDR ranges; empty: any.
         * @var list<string>
         */
        public readonly array $ipAllowlist,
        public readonly ApiKeyRateLimit $rateLimit,
        public readonly ApiKeyStatus $status,
        /** ISO 8601 instant (UTC). */
        public readonly ?\DateTimeImmutable $revokedAt,
        /** True once the last valid day is over. */
        public readonly bool $expired,
        /** Set while the key is within the reminder lead time of its expiry. */
        public readonly ?ApiKeyExpiryReminder $expiryReminder,
        /** ISO 8601 instant (UTC). */
        public readonly ?\DateTimeImmutable $lastCallAt,
        /** ISO 8601 instant (UTC). */
        public readonly \DateTimeImmutable $createdAt,
        /** ISO 8601 instant (UTC). */
        public readonly \DateTimeImmutable $updatedAt,
        /** Bumped on every change. */
        public readonly int $version,
        /** The identity (`idt_…`) whose budget the key shares. */
        public readonly ?string $identityId,
        /** The plan (`plan_…`) the key follows. */
        public readonly ?string $planId,
        /**
         * The key’s own limits (override the plan’s by name).
         * @var list<PlanLimit>
         */
        public readonly array $limits,
        /**
         * The key’s own quotas (override by period).
         * @var list<PlanQuota>
         */
        public readonly array $quotas,
        public readonly ?ApiKeyCredits $credits,
        public readonly ApiKeyRotation $rotation,
        /** The API key token. Shown only in this response; store it now. */
        public readonly string $secret,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['id'],
            $data['prefix'],
            $data['name'],
            Environment::from($data['environment']),
            array_map(static fn ($i) => Scope::from($i), $data['scopes']),
            $data['expiresAt'],
            $data['ipAllowlist'],
            ApiKeyRateLimit::fromArray($data['rateLimit']),
            ApiKeyStatus::from($data['status']),
            (static fn ($v) => $v === null ? null : new \DateTimeImmutable($v))($data['revokedAt']),
            $data['expired'],
            (static fn ($v) => $v === null ? null : ApiKeyExpiryReminder::fromArray($v))($data['expiryReminder']),
            (static fn ($v) => $v === null ? null : new \DateTimeImmutable($v))($data['lastCallAt']),
            new \DateTimeImmutable($data['createdAt']),
            new \DateTimeImmutable($data['updatedAt']),
            $data['version'],
            $data['identityId'],
            $data['planId'],
            array_map(static fn ($i) => PlanLimit::fromArray($i), $data['limits']),
            array_map(static fn ($i) => PlanQuota::fromArray($i), $data['quotas']),
            (static fn ($v) => $v === null ? null : ApiKeyCredits::fromArray($v))($data['credits']),
            ApiKeyRotation::fromArray($data['rotation']),
            $data['secret'],
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['id'] = $this->id;
        $data['prefix'] = $this->prefix;
        $data['name'] = $this->name;
        $data['environment'] = $this->environment->value;
        $data['scopes'] = array_map(static fn ($i) => $i->value, $this->scopes);
        $data['expiresAt'] = $this->expiresAt;
        $data['ipAllowlist'] = $this->ipAllowlist;
        $data['rateLimit'] = $this->rateLimit->toArray();
        $data['status'] = $this->status->value;
        $data['revokedAt'] = $this->revokedAt?->format('Y-m-d\TH:i:s.vP');
        $data['expired'] = $this->expired;
        $data['expiryReminder'] = $this->expiryReminder?->toArray();
        $data['lastCallAt'] = $this->lastCallAt?->format('Y-m-d\TH:i:s.vP');
        $data['createdAt'] = $this->createdAt->format('Y-m-d\TH:i:s.vP');
        $data['updatedAt'] = $this->updatedAt->format('Y-m-d\TH:i:s.vP');
        $data['version'] = $this->version;
        $data['identityId'] = $this->identityId;
        $data['planId'] = $this->planId;
        $data['limits'] = array_map(static fn ($i) => $i->toArray(), $this->limits);
        $data['quotas'] = array_map(static fn ($i) => $i->toArray(), $this->quotas);
        $data['credits'] = $this->credits?->toArray();
        $data['rotation'] = $this->rotation->toArray();
        $data['secret'] = $this->secret;
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
