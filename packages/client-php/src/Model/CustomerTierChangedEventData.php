<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class CustomerTierChangedEventData implements \JsonSerializable
{
    public function __construct(
        public readonly string $customerId,
        public readonly CustomerTier $oldTier,
        public readonly CustomerTier $newTier,
        public readonly Customer $customer,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['customerId'],
            CustomerTier::from($data['oldTier']),
            CustomerTier::from($data['newTier']),
            Customer::fromArray($data['customer']),
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['customerId'] = $this->customerId;
        $data['oldTier'] = $this->oldTier->value;
        $data['newTier'] = $this->newTier->value;
        $data['customer'] = $this->customer->toArray();
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
