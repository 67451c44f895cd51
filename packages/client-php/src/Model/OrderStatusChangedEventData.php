<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class OrderStatusChangedEventData implements \JsonSerializable
{
    public function __construct(
        public readonly string $orderId,
        public readonly OrderStatus $oldStatus,
        public readonly OrderStatus $newStatus,
        public readonly Order $order,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['orderId'],
            OrderStatus::from($data['oldStatus']),
            OrderStatus::from($data['newStatus']),
            Order::fromArray($data['order']),
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['orderId'] = $this->orderId;
        $data['oldStatus'] = $this->oldStatus->value;
        $data['newStatus'] = $this->newStatus->value;
        $data['order'] = $this->order->toArray();
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
