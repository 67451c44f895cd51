<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class QuotaThresholdAlertData implements \JsonSerializable
{
    public function __construct(
        public readonly string $keyId,
        public readonly ?string $identityId,
        public readonly CreditsExhaustedAlertDataSubject $subject,
        public readonly PlanQuotaPeriod $period,
        public readonly int $limit,
        public readonly int $used,
        public readonly float $threshold,
        /** ISO 8601 instant (UTC). */
        public readonly \DateTimeImmutable $periodStart,
        /** ISO 8601 instant (UTC). */
        public readonly \DateTimeImmutable $periodEnd,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['keyId'],
            $data['identityId'],
            CreditsExhaustedAlertDataSubject::fromArray($data['subject']),
            PlanQuotaPeriod::from($data['period']),
            $data['limit'],
            $data['used'],
            (float) $data['threshold'],
            new \DateTimeImmutable($data['periodStart']),
            new \DateTimeImmutable($data['periodEnd']),
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['keyId'] = $this->keyId;
        $data['identityId'] = $this->identityId;
        $data['subject'] = $this->subject->toArray();
        $data['period'] = $this->period->value;
        $data['limit'] = $this->limit;
        $data['used'] = $this->used;
        $data['threshold'] = $this->threshold;
        $data['periodStart'] = $this->periodStart->format('Y-m-d\TH:i:s.vP');
        $data['periodEnd'] = $this->periodEnd->format('Y-m-d\TH:i:s.vP');
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
