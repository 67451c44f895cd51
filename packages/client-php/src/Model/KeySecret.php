<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class KeySecret implements \JsonSerializable
{
    public function __construct(
        /** `sec_…` */
        public readonly string $id,
        /** The displayed prefix of this secret, `kg_<env>_<lookup>`. */
        public readonly string $prefix,
        /** ISO 8601 instant (UTC). */
        public readonly \DateTimeImmutable $createdAt,
        /** When a rotation overlap ends; null: open-ended. */
        public readonly ?\DateTimeImmutable $closesAt,
        /** ISO 8601 instant (UTC). */
        public readonly ?\DateTimeImmutable $closedAt,
        public readonly ?KeySecretClosedReason $closedReason,
        /** True while the secret authenticates. */
        public readonly bool $usable,
        public readonly int $callCount,
        /** ISO 8601 instant (UTC). */
        public readonly ?\DateTimeImmutable $lastCallAt,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['id'],
            $data['prefix'],
            new \DateTimeImmutable($data['createdAt']),
            (static fn ($v) => $v === null ? null : new \DateTimeImmutable($v))($data['closesAt']),
            (static fn ($v) => $v === null ? null : new \DateTimeImmutable($v))($data['closedAt']),
            (static fn ($v) => $v === null ? null : KeySecretClosedReason::from($v))($data['closedReason']),
            $data['usable'],
            $data['callCount'],
            (static fn ($v) => $v === null ? null : new \DateTimeImmutable($v))($data['lastCallAt']),
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['id'] = $this->id;
        $data['prefix'] = $this->prefix;
        $data['createdAt'] = $this->createdAt->format('Y-m-d\TH:i:s.vP');
        $data['closesAt'] = $this->closesAt?->format('Y-m-d\TH:i:s.vP');
        $data['closedAt'] = $this->closedAt?->format('Y-m-d\TH:i:s.vP');
        $data['closedReason'] = $this->closedReason?->value;
        $data['usable'] = $this->usable;
        $data['callCount'] = $this->callCount;
        $data['lastCallAt'] = $this->lastCallAt?->format('Y-m-d\TH:i:s.vP');
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
