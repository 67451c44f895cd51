<?php

declare(strict_types=1);

namespace Keygate\Client\Tests\Unit;

use GuzzleHttp\Psr7\Response;
use Keygate\Client\RateLimitState;

final class RateLimitTest extends MockClientTestCase
{
    public function testTheClientKeepsTheStateOfTheLatestAnswerThatAnnouncedOne(): void
    {
        $client = $this->client([
            self::json(200, self::channels(), ['RateLimit-Policy' => '"per-key";q=100;w=60', 'RateLimit' => '"per-key";r=57;t=23']),
            self::json(200, self::channels()),
        ]);
        self::assertNull($client->rateLimit());
        $client->listChannels();
        $client->listChannels();
        $state = $client->rateLimit();
        self::assertSame(['per-key', 100, 60, 57, 23, null], [$state?->policy, $state?->limit, $state?->windowSeconds, $state?->remaining, $state?->resetSeconds, $state?->retryAfterSeconds]);
        self::assertSame('2026-11-26T12:00:23+00:00', $state?->resetsAt->format(\DATE_ATOM));
    }

    public function testWithSeveralPoliciesTheOneWithFewestCallsLeftWins(): void
    {
        $state = RateLimitState::fromResponse(new Response(200, [
            'RateLimit-Policy' => '"burst";q=10;w=1, "per-key";q=100;w=60',
            'RateLimit' => '"per-key";r=50;t=30, "burst";r=2;t=1',
        ]));
        self::assertSame(['burst', 10, 1, 2], [$state?->policy, $state?->limit, $state?->windowSeconds, $state?->remaining]);
    }

    public function testNoUsableHeaderMeansNoState(): void
    {
        self::assertNull(RateLimitState::fromResponse(new Response(200, ['RateLimit' => '"per-key";r=abc'])));
    }
}
