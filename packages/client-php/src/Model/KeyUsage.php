<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class KeyUsage implements \JsonSerializable
{
    public function __construct(
        public readonly string $keyId,
        /** ISO 8601 instant (UTC). */
        public readonly \DateTimeImmutable $from,
        /** ISO 8601 instant (UTC). */
        public readonly \DateTimeImmutable $to,
        public readonly UsageStats $totals,
        /** @var list<KeyUsageSecret> */
        public readonly array $secrets,
        /** With `period`: calls and spent cost of the period by outcome, as billed. */
        public readonly ?PeriodUsage $billing = null,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['keyId'],
            new \DateTimeImmutable($data['from']),
            new \DateTimeImmutable($data['to']),
            UsageStats::fromArray($data['totals']),
            array_map(static fn ($i) => KeyUsageSecret::fromArray($i), $data['secrets']),
            billing: (static fn ($v) => $v === null ? null : PeriodUsage::fromArray($v))($data['billing'] ?? null),
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['keyId'] = $this->keyId;
        $data['from'] = $this->from->format('Y-m-d\TH:i:s.vP');
        $data['to'] = $this->to->format('Y-m-d\TH:i:s.vP');
        $data['totals'] = $this->totals->toArray();
        $data['secrets'] = array_map(static fn ($i) => $i->toArray(), $this->secrets);
        if ($this->billing !== null) {
            $data['billing'] = $this->billing?->toArray();
        }
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
