<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

final class AnalyticsSeries implements \JsonSerializable
{
    public function __construct(
        public readonly AnalyticsSeriesGranularity $granularity,
        /** The first bucket’s start. */
        public readonly \DateTimeImmutable $from,
        /** The end of the last bucket (exclusive). */
        public readonly \DateTimeImmutable $to,
        /** @var list<AnalyticsSeriesDataItem> */
        public readonly array $data,
    ) {
    }

    /** Builds the model from decoded JSON (`json_decode(…, true)`). */
    public static function fromArray(array $data): self
    {
        return new self(
            AnalyticsSeriesGranularity::from($data['granularity']),
            new \DateTimeImmutable($data['from']),
            new \DateTimeImmutable($data['to']),
            array_map(static fn ($i) => AnalyticsSeriesDataItem::fromArray($i), $data['data']),
        );
    }

    /** The JSON object this model stands for, members outside `required` left out when null. */
    public function toArray(): array
    {
        $data = [];
        $data['granularity'] = $this->granularity->value;
        $data['from'] = $this->from->format('Y-m-d\TH:i:s.vP');
        $data['to'] = $this->to->format('Y-m-d\TH:i:s.vP');
        $data['data'] = array_map(static fn ($i) => $i->toArray(), $this->data);
        return $data;
    }

    public function jsonSerialize(): mixed
    {
        return (object) $this->toArray();
    }
}
