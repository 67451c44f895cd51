<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class AlertDelivery implements \JsonSerializable
{
    public function __construct(
        /** The `webhook-id` of every attempt of this delivery. */
        public readonly string $id,
        public readonly string $eventId,
        public readonly string $eventType,
        public readonly string $endpointId,
        public readonly AlertDeliveryStatus $status,
        /** ISO 8601 instant (UTC). */
        public readonly ?\DateTimeImmutable $nextAttemptAt,
        public readonly int $attemptCount,
        /** ISO 8601 instant (UTC). */
        public readonly \DateTimeImmutable $createdAt,
        /** ISO 8601 instant (UTC). */
        public readonly ?\DateTimeImmutable $completedAt,
        /**
         * The latest attempts (at most 10), newest first.
         * @var list<AlertAttempt>
         */
        public readonly array $attempts,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['id'],
            $data['eventId'],
            $data['eventType'],
            $data['endpointId'],
            AlertDeliveryStatus::from($data['status']),
            (static fn ($v) => $v === null ? null : new \DateTimeImmutable($v))($data['nextAttemptAt']),
            $data['attemptCount'],
            new \DateTimeImmutable($data['createdAt']),
            (static fn ($v) => $v === null ? null : new \DateTimeImmutable($v))($data['completedAt']),
            array_map(static fn ($i) => AlertAttempt::fromArray($i), $data['attempts']),
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['id'] = $this->id;
        $data['eventId'] = $this->eventId;
        $data['eventType'] = $this->eventType;
        $data['endpointId'] = $this->endpointId;
        $data['status'] = $this->status->value;
        $data['nextAttemptAt'] = $this->nextAttemptAt?->format('Y-m-d\TH:i:s.vP');
        $data['attemptCount'] = $this->attemptCount;
        $data['createdAt'] = $this->createdAt->format('Y-m-d\TH:i:s.vP');
        $data['completedAt'] = $this->completedAt?->format('Y-m-d\TH:i:s.vP');
        $data['attempts'] = array_map(static fn ($i) => $i->toArray(), $this->attempts);
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
