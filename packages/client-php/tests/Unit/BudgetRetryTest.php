<?php

declare(strict_types=1);

namespace Keygate\Client\Tests\Unit;

use GuzzleHttp\Psr7\Response;
use Keygate\Client\Exception\ErrorCode;
use Keygate\Client\Exception\InvalidRequestException;
use Keygate\Client\Exception\RateLimitException;
use Keygate\Client\Model\CreditsOperation;
use Keygate\Client\RetryOptions;

/** Rules 4 and 5 of `RetryOptions`: spent budgets (429) and an Idempotency-Key still in use (409). */
final class BudgetRetryTest extends MockClientTestCase
{
    private const CREDITS = ['remaining' => 150, 'refill' => null, 'refillsAt' => null];

    /** @param array<string, mixed> $extensions */
    private static function budgetRefusal(string $code, ?int $retryAfter, array $extensions = []): Response
    {
        return $retryAfter === null
            ? self::problem(429, ['code' => $code] + $extensions)
            : self::problem(429, ['code' => $code, 'retryAfter' => $retryAfter] + $extensions, ['Retry-After' => (string) $retryAfter]);
    }

    private static function keyInUse(?int $retryAfter): Response
    {
        return $retryAfter === null
            ? self::problem(409, ['code' => 'IDEMPOTENCY_KEY_IN_USE'])
            : self::problem(409, ['code' => 'IDEMPOTENCY_KEY_IN_USE', 'retryAfter' => $retryAfter], ['Retry-After' => (string) $retryAfter]);
    }

    public function testADayQuotaIsNotSleptOnAndComesBackAsATypedRateLimitException(): void
    {
        $client = $this->client([self::budgetRefusal('QUOTA_EXCEEDED', 40_000, ['policy' => 'day', 'limit' => 2]), self::json(200, self::channels())]);
        try {
            $client->listChannels();
            self::fail('the quota was retried');
        } catch (RateLimitException $e) {
            self::assertSame([429, ErrorCode::QUOTA_EXCEEDED, 40_000, 'day'], [$e->status, $e->errorCode, $e->retryAfter, $e->policy()]);
            self::assertTrue($e->isBudgetSpent());
        }
        self::assertSame([], $this->sleeps);
        self::assertCount(1, $this->history);
    }

    public function testAQuotaResettingWithinTheShortLimitIsRetriedAfterItsRetryAfter(): void
    {
        $client = $this->client([self::budgetRefusal('QUOTA_EXCEEDED', RetryOptions::BUDGET_RETRY_AFTER_LIMIT_SECONDS), self::json(200, self::channels())]);
        self::assertSame('WEB_DE', $client->listChannels()->data[0]->code);
        self::assertSame([(float) RetryOptions::BUDGET_RETRY_AFTER_LIMIT_SECONDS], $this->sleeps);
    }

    public function testCreditsExhaustedWithoutRetryAfterIsNeverRetriedEvenWithARateLimitReset(): void
    {
        $refusal = self::budgetRefusal('CREDITS_EXHAUSTED', null)
            ->withHeader('RateLimit-Policy', '"minute";q=100;w=60')->withHeader('RateLimit', '"minute";r=99;t=5');
        $client = $this->client([$refusal, self::json(200, self::channels())]);
        try {
            $client->listChannels();
            self::fail('the spent balance was retried');
        } catch (RateLimitException $e) {
            self::assertSame([ErrorCode::CREDITS_EXHAUSTED, null, null], [$e->errorCode, $e->retryAfter, $e->policy()]);
        }
        self::assertSame([], $this->sleeps);
    }

    public function testCreditsRefillingInSecondsAreRetried(): void
    {
        $client = $this->client([self::budgetRefusal('CREDITS_EXHAUSTED', 3), self::json(200, self::channels())]);
        $client->listChannels();
        self::assertSame([3.0], $this->sleeps);
    }

    public function testAKeyInUseIsSentAgainAfterRetryAfterWithTheSameKeyAndBody(): void
    {
        $client = $this->client([self::keyInUse(2), self::json(200, self::CREDITS)]);
        self::assertSame(150, $client->changeIdentityCredits('idt_1', new CreditsOperation(increment: 50))->remaining);
        self::assertSame([2.0], $this->sleeps);
        [$first, $again] = array_map(static fn (array $e) => $e['request'], $this->history);
        self::assertSame($first->getHeaderLine('Idempotency-Key'), $again->getHeaderLine('Idempotency-Key'));
        self::assertNotSame('', $first->getHeaderLine('Idempotency-Key'));
        self::assertSame('{"increment":50}', (string) $again->getBody());
    }

    public function testAKeyInUseWithoutRetryAfterWaitsTheBackoff(): void
    {
        $client = $this->client([self::keyInUse(null), self::json(200, self::CREDITS)]);
        $client->changeKeyCredits('key_1', new CreditsOperation(set: 150));
        self::assertSame([1.0], $this->sleeps);
    }

    public function testAnother409IsNotRetried(): void
    {
        $client = $this->client([self::problem(409, ['code' => 'IDENTITY_EXISTS']), self::json(201, [])]);
        try {
            $client->createIdentity(['externalId' => 'acme']);
            self::fail('no conflict');
        } catch (InvalidRequestException $e) {
            self::assertSame(ErrorCode::IDENTITY_EXISTS, $e->errorCode);
        }
        self::assertSame([], $this->sleeps);
        self::assertCount(1, $this->history);
    }

    public function testAKeyInUseIsThrownOnceTheRetriesAreSpent(): void
    {
        $client = $this->client([self::keyInUse(1), self::keyInUse(1), self::keyInUse(1)]);
        try {
            $client->changeKeyCredits('key_1', new CreditsOperation(set: 1));
            self::fail('no conflict');
        } catch (InvalidRequestException $e) {
            self::assertSame(ErrorCode::IDEMPOTENCY_KEY_IN_USE, $e->errorCode);
            self::assertSame('{"set":1}', (string) $this->history[2]['request']->getBody());
        }
        self::assertSame([1.0, 1.0], $this->sleeps);
    }
}
