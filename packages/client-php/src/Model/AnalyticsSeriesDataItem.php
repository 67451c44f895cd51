<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class AnalyticsSeriesDataItem implements \JsonSerializable
{
    public function __construct(
        /** The bucket’s start (UTC). */
        public readonly \DateTimeImmutable $start,
        /**
         * Calls per outcome in the bucket: every outcome (0 when none), or only the one asked with `outcome`.
         * `VALID` admitted; `RATE_LIMITED`, `QUOTA_EXCEEDED`, `CREDITS_EXHAUSTED` refused by a limit;
         * `FORBIDDEN_SCOPE`, `FORBIDDEN_IP` refused by the key’s checks; `EXPIRED`, `REVOKED` (a revoked key
         * or a closed secret), `INVALID_SECRET` (a wrong secret on this key’s prefix) refused before the
         * call was authenticated; `UPSTREAM_ERROR` a 5xx from the upstream.
         */
        public readonly AnalyticsSeriesDataItemOutcomes $outcomes,
        /** The cost the bucket’s calls spent. */
        public readonly int $cost,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            new \DateTimeImmutable($data['start']),
            AnalyticsSeriesDataItemOutcomes::fromArray($data['outcomes']),
            $data['cost'],
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['start'] = $this->start->format('Y-m-d\TH:i:s.vP');
        $data['outcomes'] = $this->outcomes->toArray();
        $data['cost'] = $this->cost;
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
