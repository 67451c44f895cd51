<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class CreateKeyRequest implements \JsonSerializable
{
    public function __construct(
        public readonly string $name,
        /** @var list<string> */
        public readonly array $scopes,
        public readonly ?Environment $environment = null,
        public readonly ?string $expiresAt = null,
        /** @var list<string>|null */
        public readonly ?array $ipAllowlist = null,
        public readonly ?CreateKeyRequestRateLimit $rateLimit = null,
        public readonly ?string $identityId = null,
        public readonly ?string $planId = null,
        public readonly ?CreateIdentityRequestCredits $credits = null,
        /** @var list<CreateIdentityRequestLimit>|null */
        public readonly ?array $limits = null,
        /** @var list<CreateIdentityRequestQuota>|null */
        public readonly ?array $quotas = null,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['name'],
            $data['scopes'],
            environment: (static fn ($v) => $v === null ? null : Environment::from($v))($data['environment'] ?? null),
            expiresAt: $data['expiresAt'] ?? null,
            ipAllowlist: $data['ipAllowlist'] ?? null,
            rateLimit: (static fn ($v) => $v === null ? null : CreateKeyRequestRateLimit::fromArray($v))($data['rateLimit'] ?? null),
            identityId: $data['identityId'] ?? null,
            planId: $data['planId'] ?? null,
            credits: (static fn ($v) => $v === null ? null : CreateIdentityRequestCredits::fromArray($v))($data['credits'] ?? null),
            limits: (static fn ($v) => $v === null ? null : array_map(static fn ($i) => CreateIdentityRequestLimit::fromArray($i), $v))($data['limits'] ?? null),
            quotas: (static fn ($v) => $v === null ? null : array_map(static fn ($i) => CreateIdentityRequestQuota::fromArray($i), $v))($data['quotas'] ?? null),
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['name'] = $this->name;
        $data['scopes'] = $this->scopes;
        if ($this->environment !== null) {
            $data['environment'] = $this->environment?->value;
        }
        if ($this->expiresAt !== null) {
            $data['expiresAt'] = $this->expiresAt;
        }
        if ($this->ipAllowlist !== null) {
            $data['ipAllowlist'] = $this->ipAllowlist;
        }
        if ($this->rateLimit !== null) {
            $data['rateLimit'] = $this->rateLimit?->toArray();
        }
        if ($this->identityId !== null) {
            $data['identityId'] = $this->identityId;
        }
        if ($this->planId !== null) {
            $data['planId'] = $this->planId;
        }
        if ($this->credits !== null) {
            $data['credits'] = $this->credits?->toArray();
        }
        if ($this->limits !== null) {
            $data['limits'] = $this->limits === null ? null : array_map(static fn ($i) => $i->toArray(), $this->limits);
        }
        if ($this->quotas !== null) {
            $data['quotas'] = $this->quotas === null ? null : array_map(static fn ($i) => $i->toArray(), $this->quotas);
        }
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
