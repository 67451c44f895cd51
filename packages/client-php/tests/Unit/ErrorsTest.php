<?php

declare(strict_types=1);

namespace Keygate\Client\Tests\Unit;

use GuzzleHttp\Exception\ConnectException;
use GuzzleHttp\Psr7\Request;
use GuzzleHttp\Psr7\Response;
use Keygate\Client\Exception\ApiConnectionException;
use Keygate\Client\Exception\ApiException;
use Keygate\Client\Exception\AuthenticationException;
use Keygate\Client\Exception\InvalidRequestException;
use Keygate\Client\Exception\KeygateException;
use Keygate\Client\Exception\PermissionException;
use Keygate\Client\Exception\RateLimitException;

final class ErrorsTest extends MockClientTestCase
{
    private function thrown(Response|\Throwable $answer): KeygateException
    {
        $client = $this->client([$answer], retry: false);
        try {
            $client->listChannels();
        } catch (KeygateException $e) {
            return $e;
        }
        self::fail('no exception');
    }

    public function testA401IsAnAuthenticationExceptionCarryingTheProblem(): void
    {
        $e = $this->thrown(self::problem(401, ['code' => 'REVOKED_KEY', 'detail' => 'The key was revoked.'], ['X-Request-Id' => 'req_123']));
        self::assertInstanceOf(AuthenticationException::class, $e);
        self::assertSame([401, 'REVOKED_KEY', 'The key was revoked.', 'req_123'], [$e->status, $e->errorCode, $e->detail, $e->requestId]);
        self::assertSame('401 REVOKED_KEY: The key was revoked.', $e->getMessage());
    }

    public function testA403IsAPermissionExceptionNamingTheRequiredScope(): void
    {
        $e = $this->thrown(self::problem(403, ['code' => 'MISSING_SCOPE', 'requiredScope' => 'order:rw']));
        self::assertInstanceOf(PermissionException::class, $e);
        self::assertSame('order:rw', $e->requiredScope);
    }

    /** @return iterable<string, array{int}> */
    public static function invalidStatuses(): iterable
    {
        foreach ([400, 404, 409, 413, 415, 422] as $status) {
            yield "HTTP {$status}" => [$status];
        }
    }

    /** @dataProvider invalidStatuses */
    public function testOtherClientErrorsAreInvalidRequestExceptions(int $status): void
    {
        $e = $this->thrown(self::problem($status, ['errors' => [['detail' => 'Required', 'pointer' => '/name']]]));
        self::assertInstanceOf(InvalidRequestException::class, $e);
        self::assertSame($status, $e->status);
        self::assertSame([['detail' => 'Required', 'pointer' => '/name']], $e->errors);
    }

    public function testA429IsARateLimitExceptionWithRetryAfterAndTheRateLimitState(): void
    {
        $e = $this->thrown(self::problem(429, ['code' => 'RATE_LIMITED', 'retryAfter' => 17], [
            'Retry-After' => '17',
            'RateLimit-Policy' => '"per-key";q=2;w=60',
            'RateLimit' => '"per-key";r=0;t=17',
        ]));
        self::assertInstanceOf(RateLimitException::class, $e);
        self::assertSame(17, $e->retryAfter);
        self::assertSame([2, 60, 0, 17, 17], [$e->rateLimit?->limit, $e->rateLimit?->windowSeconds, $e->rateLimit?->remaining, $e->rateLimit?->resetSeconds, $e->rateLimit?->retryAfterSeconds]);
    }

    public function testA5xxIsAnApiExceptionOfTheBaseClass(): void
    {
        $e = $this->thrown(self::problem(500, ['code' => 'INTERNAL']));
        self::assertSame(ApiException::class, $e::class);
        self::assertSame('INTERNAL', $e->errorCode);
    }

    public function testAnErrorWithoutAProblemBodyGetsAStandInProblem(): void
    {
        $e = $this->thrown(new Response(502, ['Content-Type' => 'text/html'], '<h1>Bad gateway</h1>'));
        self::assertInstanceOf(ApiException::class, $e);
        self::assertSame([502, ApiException::UNEXPECTED_RESPONSE, '<h1>Bad gateway</h1>', 'about:blank'], [$e->status, $e->errorCode, $e->detail, $e->type]);
    }

    public function testASuccessStatusWithABodyThatIsNotJsonIsAnUnexpectedResponse(): void
    {
        $e = $this->thrown(new Response(200, ['Content-Type' => 'text/html'], '<html>'));
        self::assertInstanceOf(ApiException::class, $e);
        self::assertSame(ApiException::UNEXPECTED_RESPONSE, $e->errorCode);
    }

    public function testNoAnswerAtAllIsAnApiConnectionException(): void
    {
        $cause = new ConnectException('connection refused', new Request('GET', 'https://api.example.test/v2/channels'));
        $e = $this->thrown($cause);
        self::assertInstanceOf(ApiConnectionException::class, $e);
        self::assertSame($cause, $e->getPrevious());
        self::assertStringContainsString('GET /v2/channels', $e->getMessage());
    }

    public function testUnknownProblemMembersAreKeptOnTheException(): void
    {
        $e = $this->thrown(self::problem(409, ['code' => 'OUT_OF_STOCK', 'available' => 3]));
        self::assertSame(3, $e->problem['available']);
    }
}
