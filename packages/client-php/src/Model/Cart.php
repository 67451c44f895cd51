<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class Cart implements \JsonSerializable
{
    public function __construct(
        public readonly string $id,
        public readonly string $channel,
        public readonly string $currency,
        public readonly bool $pricesIncludeVat,
        public readonly ?string $customerId,
        /** The API key that owns the cart (survives rotation). */
        public readonly string $keyId,
        /** @var list<CartLine> */
        public readonly array $lines,
        public readonly CartTotals $totals,
        /** ISO 8601 instant (UTC). */
        public readonly \DateTimeImmutable $createdAt,
        /** ISO 8601 instant (UTC). */
        public readonly \DateTimeImmutable $updatedAt,
        /** When the cart became an order; null while open. */
        public readonly ?\DateTimeImmutable $checkedOutAt,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['id'],
            $data['channel'],
            $data['currency'],
            $data['pricesIncludeVat'],
            $data['customerId'],
            $data['keyId'],
            array_map(static fn ($i) => CartLine::fromArray($i), $data['lines']),
            CartTotals::fromArray($data['totals']),
            new \DateTimeImmutable($data['createdAt']),
            new \DateTimeImmutable($data['updatedAt']),
            (static fn ($v) => $v === null ? null : new \DateTimeImmutable($v))($data['checkedOutAt']),
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['id'] = $this->id;
        $data['channel'] = $this->channel;
        $data['currency'] = $this->currency;
        $data['pricesIncludeVat'] = $this->pricesIncludeVat;
        $data['customerId'] = $this->customerId;
        $data['keyId'] = $this->keyId;
        $data['lines'] = array_map(static fn ($i) => $i->toArray(), $this->lines);
        $data['totals'] = $this->totals->toArray();
        $data['createdAt'] = $this->createdAt->format('Y-m-d\TH:i:s.vP');
        $data['updatedAt'] = $this->updatedAt->format('Y-m-d\TH:i:s.vP');
        $data['checkedOutAt'] = $this->checkedOutAt?->format('Y-m-d\TH:i:s.vP');
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
