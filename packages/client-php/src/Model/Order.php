<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class Order implements \JsonSerializable
{
    public function __construct(
        public readonly string $id,
        public readonly string $cartId,
        public readonly string $keyId,
        public readonly OrderStatus $status,
        public readonly string $channel,
        public readonly ?string $customerId,
        public readonly string $currency,
        /** @var list<OrderLine> */
        public readonly array $lines,
        public readonly VatSplit $totals,
        /** ISO 8601 instant (UTC). */
        public readonly \DateTimeImmutable $createdAt,
        /** ISO 8601 instant (UTC). */
        public readonly \DateTimeImmutable $updatedAt,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['id'],
            $data['cartId'],
            $data['keyId'],
            OrderStatus::from($data['status']),
            $data['channel'],
            $data['customerId'],
            $data['currency'],
            array_map(static fn ($i) => OrderLine::fromArray($i), $data['lines']),
            VatSplit::fromArray($data['totals']),
            new \DateTimeImmutable($data['createdAt']),
            new \DateTimeImmutable($data['updatedAt']),
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['id'] = $this->id;
        $data['cartId'] = $this->cartId;
        $data['keyId'] = $this->keyId;
        $data['status'] = $this->status->value;
        $data['channel'] = $this->channel;
        $data['customerId'] = $this->customerId;
        $data['currency'] = $this->currency;
        $data['lines'] = array_map(static fn ($i) => $i->toArray(), $this->lines);
        $data['totals'] = $this->totals->toArray();
        $data['createdAt'] = $this->createdAt->format('Y-m-d\TH:i:s.vP');
        $data['updatedAt'] = $this->updatedAt->format('Y-m-d\TH:i:s.vP');
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
