<?php

declare(strict_types=1);

namespace Keygate\Client\Tests\Integration;

use Keygate\Client\Exception\RateLimitException;

/**
 * The gateway's own 429: KEYGATE_LIMITED_KEY allows one call a minute, so the window the gateway
 * reports always ends within the 60 s retry budget. The e2e test spends the call before starting
 * PHPUnit and this test runs last (see phpunit.xml), so the other suites use up part of the wait;
 * on a slow machine where that window has passed, the test spends the new window's call itself.
 */
final class RateLimitTest extends SystemTestCase
{
    public function testA429IsRetriedAfterTheRealRetryAfterAndThenSucceeds(): void
    {
        $limited = self::env('KEYGATE_LIMITED_KEY');
        $plain = self::clientFor($limited, retry: false);
        try {
            $plain->listChannels();
            $plain->listChannels();
            self::fail('the key was not limited');
        } catch (RateLimitException $e) {
            self::assertSame([429, 'RATE_LIMITED'], [$e->status, $e->errorCode]);
            self::assertGreaterThanOrEqual(1, $e->retryAfter);
            self::assertSame([1, 0], [$e->rateLimit?->limit, $e->rateLimit?->remaining]);
        }

        $waits = [];
        // Really waits (this is the retry honouring the gateway's Retry-After), and records what it waited.
        $sleep = static function (float $seconds) use (&$waits): void {
            $waits[] = $seconds;
            usleep((int) ($seconds * 1_000_000));
        };
        $client = self::clientFor($limited, sleep: $sleep);
        $channels = $client->listChannels();
        self::assertNotEmpty($channels->data, 'the retry after the window got through');
        self::assertCount(1, $waits, 'one retry was enough');
        self::assertLessThanOrEqual((float) $e->retryAfter, $waits[0], 'waited what the gateway asked, no longer');
        self::assertSame(0, $client->rateLimit()?->remaining, 'the retry used the new window\'s one call');
    }
}
