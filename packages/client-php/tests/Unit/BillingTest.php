<?php

declare(strict_types=1);

namespace Keygate\Client\Tests\Unit;

use GuzzleHttp\Psr7\Response;
use Keygate\Client\Model\ExportUsageFormat;

/** Identities walked page by page, and the billing export as text or as a stream. */
final class BillingTest extends MockClientTestCase
{
    private const CSV = "period,subject_type,subject_id,external_id,environment,outcome,calls,cost\n2026-11,identity,idt_1,acme,live,VALID,2,2\n";

    /** @return array<string, mixed> */
    private static function identity(string $id): array
    {
        return ['id' => $id, 'externalId' => "ext-{$id}", 'environment' => 'live', 'planId' => null, 'meta' => [], 'limits' => [], 'quotas' => [],
            'credits' => null, 'createdAt' => '2026-11-28T10:00:00Z', 'updatedAt' => '2026-11-28T10:00:00Z', 'version' => 1];
    }

    public function testEveryIdentityIsYieldedAcrossPages(): void
    {
        $client = $this->client([
            self::json(200, ['items' => [self::identity('idt_1'), self::identity('idt_2')], 'nextCursor' => 'c2']),
            self::json(200, ['items' => [self::identity('idt_3')], 'nextCursor' => null]),
        ]);
        $ids = array_map(static fn ($i) => $i->id, iterator_to_array($client->listIdentitiesAutoPaging(limit: 2), false));
        self::assertSame(['idt_1', 'idt_2', 'idt_3'], $ids);
        self::assertSame(['GET /v2/auth/identities?limit=2', 'GET /v2/auth/identities?limit=2&cursor=c2'], $this->sent());
    }

    public function testTheExportComesAsTextOrAsAStream(): void
    {
        $client = $this->client([
            new Response(200, ['Content-Type' => 'text/csv; charset=utf-8'], self::CSV),
            new Response(200, ['Content-Type' => 'application/x-ndjson; charset=utf-8'], "{\"calls\":2}\n"),
        ]);
        self::assertSame(self::CSV, $client->exportUsage('2026-11'));
        $stream = $client->exportUsageStream('2026-11', ExportUsageFormat::Jsonl);
        self::assertSame("{\"calls\":2}\n", $stream->getContents());
        self::assertSame(['GET /v2/auth/usage/export?period=2026-11', 'GET /v2/auth/usage/export?period=2026-11&format=jsonl'], $this->sent());
    }
}
