<?php

declare(strict_types=1);

namespace Keygate\Client\Tests\Unit;

use GuzzleHttp\Psr7\Response;
use Keygate\Client\Exception\ApiException;
use Keygate\Client\Exception\RateLimitException;
use Keygate\Client\Model\SetStockRequest;
use Keygate\Client\RetryOptions;

final class RetryTest extends MockClientTestCase
{
    private static function limited(string $retryAfter = '3'): Response
    {
        return self::problem(429, ['code' => 'RATE_LIMITED'], ['Retry-After' => $retryAfter]);
    }

    public function testAGetIsRetriedAfterTheRetryAfterOfA429(): void
    {
        $client = $this->client([self::limited('3'), self::json(200, self::channels())]);
        self::assertSame('WEB_DE', $client->listChannels()->data[0]->code);
        self::assertSame([3.0], $this->sleeps);
        self::assertSame(['GET /v2/channels', 'GET /v2/channels'], $this->sent());
    }

    /** @return iterable<string, array{int}> */
    public static function upstreamFailures(): iterable
    {
        yield '502' => [502];
        yield '503' => [503];
        yield '504' => [504];
    }

    /** @dataProvider upstreamFailures */
    public function testUpstreamFailuresAreRetriedAfterRetryAfterOrABackoff(int $status): void
    {
        $client = $this->client([
            self::problem($status, ['code' => 'UPSTREAM']),
            self::problem($status, ['code' => 'UPSTREAM'], ['Retry-After' => '5']),
            self::json(200, self::channels()),
        ]);
        $client->listChannels();
        self::assertSame([1.0, 5.0], $this->sleeps, 'no Retry-After: 1 s; then the 5 s asked for');
    }

    public function testAPutAndADeleteAreRetriedToo(): void
    {
        $stock = ['sku' => 'KG-1', 'onHand' => 5, 'allocated' => 0, 'available' => 5];
        $client = $this->client([self::limited('1'), self::json(200, $stock), self::limited('2'), new Response(204)]);
        self::assertSame(5, $client->setStock('KG-1', new SetStockRequest(onHand: 5))->onHand);
        $client->deletePrice('price_1');
        self::assertSame(['PUT /v2/stock/KG-1', 'PUT /v2/stock/KG-1', 'DELETE /v2/prices/price_1', 'DELETE /v2/prices/price_1'], $this->sent());
        self::assertSame('{"onHand":5}', (string) $this->history[1]['request']->getBody(), 'the retried PUT carries its body again');
    }

    public function testAtMostTwoRetriesThenTheLastAnswerIsThrown(): void
    {
        $client = $this->client([self::limited('1'), self::limited('1'), self::limited('4'), self::json(200, self::channels())]);
        try {
            $client->listChannels();
            self::fail('no exception');
        } catch (RateLimitException $e) {
            self::assertSame(4, $e->retryAfter);
        }
        self::assertCount(3, $this->sent());
        self::assertSame([1.0, 1.0], $this->sleeps);
    }

    public function testAWaitBeyondTheSixtySecondBudgetIsNotWaited(): void
    {
        $client = $this->client([self::limited('45'), self::limited('20'), self::json(200, self::channels())]);
        $this->expectException(RateLimitException::class);
        try {
            $client->listChannels();
        } finally {
            self::assertSame([45.0], $this->sleeps, '45 + 20 would pass 60 s');
            self::assertCount(2, $this->sent());
        }
    }

    public function testAPostOrPatchIsRetriedOnlyWithAnIdempotencyKey(): void
    {
        $retry = new RetryOptions();
        $now = new \DateTimeImmutable('2026-11-26T12:00:00Z');
        $unavailable = self::problem(503, ['code' => 'UPSTREAM_UNAVAILABLE'], ['Retry-After' => '2']);
        foreach (['POST', 'PATCH'] as $method) {
            self::assertNull($retry->delayFor($method, self::limited('3'), 0, $now));
            self::assertNull($retry->delayFor($method, $unavailable, 0, $now));
            self::assertNull($retry->delayAfterConnectionError($method, 0));
            self::assertSame(3.0, $retry->delayFor($method, self::limited('3'), 0, $now, isKeyed: true));
            self::assertSame(2.0, $retry->delayFor($method, $unavailable, 0, $now, isKeyed: true));
            self::assertSame(2.0, $retry->delayAfterConnectionError($method, 1, isKeyed: true));
        }
    }

    public function testRetriesCanBeTurnedOff(): void
    {
        $client = $this->client([self::limited('1')], retry: false);
        $this->expectException(RateLimitException::class);
        try {
            $client->listChannels();
        } finally {
            self::assertSame([], $this->sleeps);
        }
    }

    public function testOtherErrorsAreNotRetried(): void
    {
        $client = $this->client([self::problem(500, ['code' => 'INTERNAL']), self::json(200, self::channels())]);
        $this->expectException(ApiException::class);
        try {
            $client->listChannels();
        } finally {
            self::assertCount(1, $this->sent());
        }
    }

    public function testRetryAfterAsAnHttpDateIsMeasuredFromTheClock(): void
    {
        $client = $this->client([self::limited('Thu, 26 Nov 2026 12:00:08 GMT'), self::json(200, self::channels())]);
        $client->listChannels();
        self::assertSame([8.0], $this->sleeps);
    }

    public function testA429WithoutRetryAfterWaitsForTheRateLimitReset(): void
    {
        $client = $this->client([
            self::problem(429, ['code' => 'RATE_LIMITED'], ['RateLimit' => '"per-key";r=0;t=6']),
            self::json(200, self::channels()),
        ]);
        $client->listChannels();
        self::assertSame([6.0], $this->sleeps);
    }

    public function testCustomLimitsApply(): void
    {
        $client = $this->client([self::limited('1'), self::limited('1')], retry: new RetryOptions(maxRetries: 1, maxWaitSeconds: 10));
        $this->expectException(RateLimitException::class);
        try {
            $client->listChannels();
        } finally {
            self::assertSame([1.0], $this->sleeps);
        }
    }
}
