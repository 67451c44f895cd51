<?php

declare(strict_types=1);

namespace Keygate\Client\Tests\Unit;

use GuzzleHttp\Client;
use GuzzleHttp\Handler\MockHandler;
use GuzzleHttp\HandlerStack;
use GuzzleHttp\Middleware;
use GuzzleHttp\Psr7\Response;
use Keygate\Client\KeygateClient;
use Keygate\Client\RetryOptions;
use PHPUnit\Framework\TestCase;
use Psr\Http\Message\RequestInterface;
use Psr\Log\LoggerInterface;

/** A client whose PSR-18 transport is Guzzle with a `MockHandler`: queued answers, recorded requests and waits. */
abstract class MockClientTestCase extends TestCase
{
    protected MockHandler $mock;
    /** @var list<array{request: RequestInterface}> */
    protected array $history = [];
    /** @var list<float> seconds the client asked to wait */
    protected array $sleeps = [];

    /**
     * @param list<Response|\Throwable> $answers
     * @param (callable(\Keygate\Client\KeygateNotice): void)|null $onNotice
     */
    protected function client(
        array $answers,
        RetryOptions|bool $retry = true,
        ?callable $onNotice = null,
        ?LoggerInterface $logger = null,
    ): KeygateClient {
        $this->mock = new MockHandler($answers);
        $stack = HandlerStack::create($this->mock);
        $stack->push(Middleware::history($this->history));
        return new KeygateClient(
            apiKey: 'kg_test_abcdefgh_0123456789012345678901234567',
            baseUrl: 'https://api.example.test/',
            httpClient: new Client(['handler' => $stack, 'http_errors' => false]),
            retry: $retry,
            sleep: function (float $seconds): void {
                $this->sleeps[] = $seconds;
            },
            clock: static fn (): \DateTimeImmutable => new \DateTimeImmutable('2026-11-26T12:00:00Z'),
            onNotice: $onNotice,
            logger: $logger,
        );
    }

    /** @param array<string, mixed> $problem */
    protected static function problem(int $status, array $problem, array $headers = []): Response
    {
        return new Response($status, ['Content-Type' => 'application/problem+json', ...$headers], json_encode($problem + [
            'type' => 'https://keygate.dev/problems/x',
            'title' => 'Problem',
            'status' => $status,
            'detail' => 'Something is wrong.',
            'code' => 'SOMETHING',
        ]));
    }

    protected static function json(int $status, mixed $body, array $headers = []): Response
    {
        return new Response($status, ['Content-Type' => 'application/json', ...$headers], json_encode($body));
    }

    /** `METHOD path?query` of each request sent, in order. */
    protected function sent(): array
    {
        return array_map(static function (array $entry): string {
            $uri = $entry['request']->getUri();
            return $entry['request']->getMethod() . ' ' . $uri->getPath() . ($uri->getQuery() === '' ? '' : '?' . $uri->getQuery());
        }, $this->history);
    }

    protected static function channels(): array
    {
        return ['data' => [['code' => 'WEB_DE', 'name' => 'Web DE', 'currency' => 'EUR', 'taxCountry' => 'DE', 'pricesIncludeVat' => true]]];
    }
}
