<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class CustomerUpdatedEventData implements \JsonSerializable
{
    public function __construct(
        public readonly string $customerId,
        /**
         * Fields whose value differs between old and new.
         * @var list<string>
         */
        public readonly array $changed,
        public readonly Customer $old,
        public readonly Customer $new,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['customerId'],
            $data['changed'],
            Customer::fromArray($data['old']),
            Customer::fromArray($data['new']),
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['customerId'] = $this->customerId;
        $data['changed'] = $this->changed;
        $data['old'] = $this->old->toArray();
        $data['new'] = $this->new->toArray();
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
