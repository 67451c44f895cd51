<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class UpdateIdentityRequest implements \JsonSerializable
{
    public function __construct(
        public readonly ?string $planId = null,
        /** @var array<string, mixed>|null */
        public readonly ?array $meta = null,
        /** @var list<CreateIdentityRequestLimit>|null */
        public readonly ?array $limits = null,
        /** @var list<CreateIdentityRequestQuota>|null */
        public readonly ?array $quotas = null,
        public readonly ?UpdateIdentityRequestCredits $credits = null,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            planId: $data['planId'] ?? null,
            meta: $data['meta'] ?? null,
            limits: (static fn ($v) => $v === null ? null : array_map(static fn ($i) => CreateIdentityRequestLimit::fromArray($i), $v))($data['limits'] ?? null),
            quotas: (static fn ($v) => $v === null ? null : array_map(static fn ($i) => CreateIdentityRequestQuota::fromArray($i), $v))($data['quotas'] ?? null),
            credits: (static fn ($v) => $v === null ? null : UpdateIdentityRequestCredits::fromArray($v))($data['credits'] ?? null),
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        if ($this->planId !== null) {
            $data['planId'] = $this->planId;
        }
        if ($this->meta !== null) {
            $data['meta'] = $this->meta === null ? null : (object) $this->meta;
        }
        if ($this->limits !== null) {
            $data['limits'] = $this->limits === null ? null : array_map(static fn ($i) => $i->toArray(), $this->limits);
        }
        if ($this->quotas !== null) {
            $data['quotas'] = $this->quotas === null ? null : array_map(static fn ($i) => $i->toArray(), $this->quotas);
        }
        if ($this->credits !== null) {
            $data['credits'] = $this->credits?->toArray();
        }
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
