<?php

declare(strict_types=1);

namespace Keygate\Client;

use GuzzleHttp\Client as GuzzleClient;
use GuzzleHttp\Psr7\HttpFactory;
use Keygate\Client\Exception\ApiConnectionException;
use Keygate\Client\Exception\ApiException;
use Keygate\Client\Internal\IdempotencyKey;
use Keygate\Client\Internal\Notices;
use Psr\Http\Client\ClientExceptionInterface;
use Psr\Http\Client\ClientInterface;
use Psr\Http\Message\RequestFactoryInterface;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;
use Psr\Http\Message\StreamFactoryInterface;
use Psr\Http\Message\StreamInterface;
use Psr\Log\LoggerInterface;

/**
 * The keygate API for PHP: one method per operation (see `KeygateOperations`), typed models in and
 * out, error answers thrown as `ApiException` subclasses.
 *
 * Each call: Bearer key (and an `Idempotency-Key` on POST/PATCH) → PSR-18 send → rate-limit state
 * and notices recorded from every answer (retried ones too) → retried as `RetryOptions` says
 * (GET/HEAD/OPTIONS/PUT/DELETE after 429/502/503/504 and connection errors; POST/PATCH after
 * 429/503, 409 IDEMPOTENCY_KEY_IN_USE and connection errors, with the same key; a 429
 * QUOTA_EXCEEDED/CREDITS_EXHAUSTED only after a short `Retry-After`) → a 2xx body is decoded,
 * anything else thrown.
 */
final class KeygateClient
{
    use KeygateOperations;

    private readonly string $baseUrl;
    private readonly ClientInterface $http;
    private readonly RequestFactoryInterface $requests;
    private readonly StreamFactoryInterface $streams;
    private readonly ?RetryOptions $retry;
    private readonly Notices $notices;
    /** @var callable(float): void */
    private readonly mixed $sleep;
    /** @var callable(): \DateTimeImmutable */
    private readonly mixed $clock;
    private ?RateLimitState $rateLimit = null;

    /**
     * @param string $apiKey the `kg_live_…` / `kg_test_…` token, sent as `Authorization: Bearer`
     * @param string $baseUrl the gateway's origin, e.g. `https://api.example.com` (paths start with `/v2/`)
     * @param ClientInterface|null $httpClient any PSR-18 client; default Guzzle
     * @param RequestFactoryInterface|null $requestFactory PSR-17; default Guzzle's `HttpFactory`
     * @param StreamFactoryInterface|null $streamFactory PSR-17; default Guzzle's `HttpFactory`
     * @param RetryOptions|bool $retry `true` for the defaults (2 retries, 60 s), `false` for none
     * @param (callable(KeygateNotice): void)|null $onNotice called once per deprecated operation and per key-expiry notice
     * @param LoggerInterface|null $logger gets each notice as a warning
     * @param (callable(float): void)|null $sleep how to wait before a retry, in seconds (tests record instead)
     * @param (callable(): \DateTimeImmutable)|null $clock the current time, for `Retry-After` dates
     */
    public function __construct(
        // Kept out of stack traces (PHP 8.2; older versions ignore the attribute).
        #[\SensitiveParameter]
        private readonly string $apiKey,
        string $baseUrl,
        ?ClientInterface $httpClient = null,
        ?RequestFactoryInterface $requestFactory = null,
        ?StreamFactoryInterface $streamFactory = null,
        RetryOptions|bool $retry = true,
        ?callable $onNotice = null,
        ?LoggerInterface $logger = null,
        ?callable $sleep = null,
        ?callable $clock = null,
    ) {
        if ($apiKey === '') {
            throw new \InvalidArgumentException('keygate client: apiKey is required');
        }
        if (preg_match('#^https?://[^/]+#', $baseUrl) !== 1) {
            throw new \InvalidArgumentException("keygate client: baseUrl must be an http(s) origin, got \"{$baseUrl}\"");
        }
        $this->baseUrl = rtrim($baseUrl, '/');
        // Guzzle must hand error answers back rather than throw them: they become ApiExceptions here.
        $this->http = $httpClient ?? new GuzzleClient(['http_errors' => false]);
        $factory = ($requestFactory === null || $streamFactory === null) ? new HttpFactory() : null;
        $this->requests = $requestFactory ?? $factory;
        $this->streams = $streamFactory ?? $factory;
        $this->retry = $retry === true ? new RetryOptions() : ($retry === false ? null : $retry);
        $this->notices = new Notices($onNotice, $logger);
        $this->sleep = $sleep ?? static function (float $seconds): void {
            usleep((int) round($seconds * 1_000_000));
        };
        $this->clock = $clock ?? static fn (): \DateTimeImmutable => new \DateTimeImmutable();
    }

    /**
     * What `var_dump` and `print_r` show: the key's displayed prefix (`kg_live_7Hq2xPab`), never
     * the token, so a dumped client in a log or an error page does not leak it.
     *
     * @return array<string, mixed>
     */
    public function __debugInfo(): array
    {
        $prefix = implode('_', array_slice(explode('_', $this->apiKey), 0, 3));
        return ['apiKey' => $prefix === $this->apiKey ? '(hidden)' : "{$prefix}_…", 'baseUrl' => $this->baseUrl, 'rateLimit' => $this->rateLimit];
    }

    /** The rate-limit state of the latest answer that announced one (null before any). */
    public function rateLimit(): ?RateLimitState
    {
        return $this->rateLimit;
    }

    /**
     * Sends one operation and returns its decoded JSON body (null for 204 and 304), retrying as
     * `RetryOptions` allows. A POST or PATCH carries `$headers['Idempotency-Key']` when given, else
     * a fresh UUIDv4, the same on each retry. Throws `ApiException` subclasses for error answers and
     * `ApiConnectionException` when no answer came.
     *
     * @param array<string, string> $path values of the `{name}` segments of `$template`
     * @param array<string, string|null> $query query parameters; null ones are left out
     * @param array<string, string|null> $headers extra headers; null ones are left out
     * @param \JsonSerializable|array<string, mixed>|\stdClass|null $body the JSON request body
     * @return array<mixed>|null
     */
    public function send(
        string $method,
        string $template,
        array $path = [],
        array $query = [],
        array $headers = [],
        \JsonSerializable|array|\stdClass|null $body = null,
    ): ?array {
        return $this->decode($this->exchange($method, $template, $path, $query, $headers, $body, self::JSON_ACCEPT));
    }

    /**
     * Sends one operation whose answer is not JSON (a generated product image) and returns its body
     * as it came, or null for 304; retries and errors as `send()`.
     *
     * @param array<string, string> $path
     * @param array<string, string|null> $query
     * @param array<string, string|null> $headers
     */
    public function sendForText(
        string $method,
        string $template,
        array $path = [],
        array $query = [],
        array $headers = [],
        string $accept = '*/*',
    ): ?string {
        $response = $this->exchange($method, $template, $path, $query, $headers, null, "{$accept}, application/problem+json");
        return $response->getStatusCode() === 304 ? null : (string) $response->getBody();
    }

    /**
     * The billing export of `$period` (`GET /v2/auth/usage/export`) as a stream, to copy to a file
     * or read line by line rather than hold as one string (`exportUsage()` gives the text).
     */
    public function exportUsageStream(string $period, ?Model\ExportUsageFormat $format = null): StreamInterface
    {
        $query = ['period' => $period, 'format' => $format?->value];
        return $this->exchange('GET', '/v2/auth/usage/export', [], $query, [], null, 'text/csv, application/x-ndjson, application/problem+json')->getBody();
    }

    private const JSON_ACCEPT = 'application/json, application/problem+json';

    /**
     * The loop behind `send()` and `sendForText()`: the first 2xx or 304 answer, after retries.
     *
     * @param array<string, string> $path
     * @param array<string, string|null> $query
     * @param array<string, string|null> $headers
     */
    private function exchange(
        string $method,
        string $template,
        array $path,
        array $query,
        array $headers,
        \JsonSerializable|array|\stdClass|null $body,
        string $accept,
    ): ResponseInterface {
        $operation = "{$method} {$template}";
        $headers = IdempotencyKey::addTo($method, $headers);
        $isKeyed = IdempotencyKey::isIn($headers);
        $waited = 0.0;
        for ($attempt = 0; ; $attempt++) {
            $request = $this->request($method, $template, $path, $query, $headers, $body, $accept);
            try {
                $response = $this->http->sendRequest($request);
            } catch (ClientExceptionInterface $e) {
                $delay = $this->retry?->delayAfterConnectionError($method, $attempt, $isKeyed);
                if ($delay === null || $waited + $delay > $this->retry->maxWaitSeconds) {
                    throw new ApiConnectionException("keygate: {$operation} got no answer: {$e->getMessage()}", 0, $e);
                }
                ($this->sleep)($delay);
                $waited += $delay;
                continue;
            }
            $now = ($this->clock)();
            $this->rateLimit = RateLimitState::fromResponse($response, $now) ?? $this->rateLimit;
            $this->notices->observe($response, $operation);
            $status = $response->getStatusCode();
            if ($status >= 200 && $status < 300 || $status === 304) {
                return $response;
            }
            $delay = $this->retry?->delayFor($method, $response, $attempt, $now, $isKeyed);
            if ($delay === null || $waited + $delay > $this->retry->maxWaitSeconds) {
                throw ApiException::fromResponse($response, RateLimitState::fromResponse($response, $now));
            }
            ($this->sleep)($delay);
            $waited += $delay;
        }
    }

    /**
     * @param array<string, string> $path
     * @param array<string, string|null> $query
     * @param array<string, string|null> $headers
     */
    private function request(
        string $method,
        string $template,
        array $path,
        array $query,
        array $headers,
        \JsonSerializable|array|\stdClass|null $body,
        string $accept,
    ): RequestInterface {
        $url = preg_replace_callback(
            '/\{([^}]+)\}/',
            static fn (array $m): string => rawurlencode($path[$m[1]] ?? throw new \InvalidArgumentException("missing path parameter {$m[1]}")),
            $template,
        );
        $query = array_filter($query, static fn (?string $v): bool => $v !== null);
        if ($query !== []) {
            $url .= '?' . http_build_query($query, '', '&', PHP_QUERY_RFC3986);
        }
        $request = $this->requests->createRequest($method, $this->baseUrl . $url)
            ->withHeader('Authorization', "Bearer {$this->apiKey}")
            ->withHeader('Accept', $accept);
        foreach ($headers as $name => $value) {
            if ($value !== null) {
                $request = $request->withHeader($name, $value);
            }
        }
        if ($body !== null) {
            $json = json_encode(is_array($body) ? (object) $body : $body, JSON_THROW_ON_ERROR | JSON_UNESCAPED_SLASHES);
            $request = $request->withHeader('Content-Type', 'application/json')
                ->withBody($this->streams->createStream($json));
        }
        return $request;
    }

    /** @return array<mixed>|null */
    private function decode(ResponseInterface $response): ?array
    {
        $text = (string) $response->getBody();
        if ($response->getStatusCode() === 204 || $response->getStatusCode() === 304 || $text === '') {
            return null;
        }
        $data = json_decode($text, true);
        // A success status with a body that is not a JSON object (e.g. a proxy's HTML page) is no answer of the API.
        return is_array($data) ? $data : throw ApiException::fromResponse($response, null);
    }
}
