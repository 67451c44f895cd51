<?php

declare(strict_types=1);

namespace Keygate\Client\Tests\Unit;

use Keygate\Client\DeprecationNotice;
use Keygate\Client\KeyExpiryNotice;
use Keygate\Client\KeygateNotice;
use Psr\Log\AbstractLogger;

final class NoticesTest extends MockClientTestCase
{
    public function testADeprecatedOperationIsReportedOnceWithItsDatesAndLink(): void
    {
        $notices = [];
        $deprecated = [
            'Deprecation' => '@1767225600',
            'Sunset' => 'Thu, 01 Jul 2027 00:00:00 GMT',
            'Link' => '<https://keygate.dev/changelog>; rel="alternate", <https://keygate.dev/deprecation>; rel="deprecation"',
        ];
        $client = $this->client(
            [self::json(200, self::channels(), $deprecated), self::json(200, self::channels(), $deprecated)],
            onNotice: static function (KeygateNotice $notice) use (&$notices): void {
                $notices[] = $notice;
            },
        );
        $client->listChannels();
        $client->listChannels();
        self::assertCount(1, $notices);
        $notice = $notices[0];
        self::assertInstanceOf(DeprecationNotice::class, $notice);
        self::assertSame('GET /v2/channels', $notice->operation);
        self::assertSame('2026-01-01T00:00:00+00:00', $notice->deprecatedAt?->format(\DATE_ATOM));
        self::assertSame('2027-07-01', $notice->sunsetAt?->format('Y-m-d'));
        self::assertSame('https://keygate.dev/deprecation', $notice->link);
    }

    public function testAKeyExpiryNoticeGoesToTheLoggerAsAWarning(): void
    {
        $logger = new class () extends AbstractLogger {
            /** @var list<array{string, string, array<mixed>}> */
            public array $lines = [];

            public function log($level, $message, array $context = []): void
            {
                $this->lines[] = [(string) $level, (string) $message, $context];
            }
        };
        $expiring = ['Keygate-Key-Expires' => '2026-11-30; days-left=5'];
        $client = $this->client([self::json(200, self::channels(), $expiring), self::json(200, self::channels(), $expiring)], logger: $logger);
        $client->listChannels();
        $client->listChannels();
        self::assertCount(1, $logger->lines, 'once per announced expiry day');
        [$level, $message, $context] = $logger->lines[0];
        self::assertSame('warning', $level);
        self::assertSame('keygate: the API key expires after 2026-11-30 (5 days left); rotate or replace it', $message);
        self::assertEquals(new KeyExpiryNotice('2026-11-30', 5), $context['notice']);
    }

    public function testAnswersWithoutNoticeHeadersReportNothing(): void
    {
        $notices = [];
        $client = $this->client([self::json(200, self::channels())], onNotice: static function ($n) use (&$notices): void {
            $notices[] = $n;
        });
        $client->listChannels();
        self::assertSame([], $notices);
    }
}
