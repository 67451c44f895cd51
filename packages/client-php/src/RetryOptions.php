<?php

declare(strict_types=1);

namespace Keygate\Client;

use Psr\Http\Message\ResponseInterface;

/**
 * When a call is sent again (the TypeScript and .NET clients follow the same rules):
 *
 * 1. GET, HEAD, OPTIONS, PUT and DELETE (idempotent by RFC 9110 §9.2.2) after 429, 502, 503, 504
 *    and a connection error (no answer).
 * 2. POST and PATCH only with an `Idempotency-Key` (the client adds one to each), after 429, 503
 *    and a connection error, with the same key: the service answers a repeat with the first
 *    result instead of acting twice. Not after 502/504: the first request may still be running,
 *    and its repeat would only meet `IDEMPOTENCY_KEY_IN_USE`.
 * 3. The wait is `Retry-After`, else for a 429 the `RateLimit` reset (a 429 with neither is not
 *    retried), else a backoff of 1 s doubled per retry; all within `maxRetries` and `maxWaitSeconds`.
 */
final class RetryOptions
{
    /** Methods whose repetition has the effect of one request (RFC 9110 §9.2.2). */
    public const RETRIED_METHODS = ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'];
    /** Methods retried only with an `Idempotency-Key`. */
    public const KEYED_METHODS = ['POST', 'PATCH'];
    /** Answers worth trying again: the rate limit, and a gateway or upstream that may recover. */
    public const RETRIED_STATUSES = [429, 502, 503, 504];
    /** Answers after which a POST or PATCH with an `Idempotency-Key` is sent again. */
    public const KEYED_RETRIED_STATUSES = [429, 503];
    /** Wait before retrying a 502/503/504 without `Retry-After` or a connection error, doubled per retry. */
    public const DEFAULT_BACKOFF_SECONDS = 1.0;

    public function __construct(
        /** Retries per call after the first attempt. */
        public readonly int $maxRetries = 2,
        /**
         * Seconds one call may spend waiting across its retries. A retry whose wait would go past
         * what is left is not made: the answer (or the connection error) is thrown at once.
         */
        public readonly float $maxWaitSeconds = 60.0,
    ) {
        if ($maxRetries < 0 || $maxWaitSeconds < 0) {
            throw new \InvalidArgumentException('keygate client: maxRetries and maxWaitSeconds must not be negative');
        }
    }

    /**
     * Seconds to wait before retrying `$response` (attempt `$attempt`, 0 for the first retry), or
     * null when it is not retried: `Retry-After`, else for a 429 the `RateLimit` reset, else a
     * doubling backoff. `$isKeyed`: the request carries an `Idempotency-Key`.
     */
    public function delayFor(string $method, ResponseInterface $response, int $attempt, \DateTimeImmutable $now, bool $isKeyed = false): ?float
    {
        $status = $response->getStatusCode();
        if ($attempt >= $this->maxRetries || !in_array($status, self::retriedStatuses($method, $isKeyed), true)) {
            return null;
        }
        $delay = self::retryAfterSeconds($response, $now);
        if ($delay === null && $status === 429) {
            $delay = RateLimitState::fromResponse($response, $now)?->resetSeconds;
        }
        if ($delay === null && $status !== 429) {
            $delay = self::DEFAULT_BACKOFF_SECONDS * 2 ** $attempt;
        }
        return $delay === null ? null : (float) $delay;
    }

    /** Seconds to wait before retrying after a connection error (no answer), or null when it is not retried. */
    public function delayAfterConnectionError(string $method, int $attempt, bool $isKeyed = false): ?float
    {
        if ($attempt >= $this->maxRetries || self::retriedStatuses($method, $isKeyed) === []) {
            return null;
        }
        return self::DEFAULT_BACKOFF_SECONDS * 2 ** $attempt;
    }

    /** @return list<int> the statuses after which a request of `$method` is sent again */
    private static function retriedStatuses(string $method, bool $isKeyed): array
    {
        $method = strtoupper($method);
        if (in_array($method, self::RETRIED_METHODS, true)) {
            return self::RETRIED_STATUSES;
        }
        return $isKeyed && in_array($method, self::KEYED_METHODS, true) ? self::KEYED_RETRIED_STATUSES : [];
    }

    /** Seconds a `Retry-After` header asks to wait (integer seconds or an HTTP date); null without one. */
    public static function retryAfterSeconds(ResponseInterface $response, \DateTimeImmutable $now): ?float
    {
        $raw = trim($response->getHeaderLine('Retry-After'));
        if ($raw === '') {
            return null;
        }
        if (preg_match('/^\d+$/', $raw) === 1) {
            return (float) $raw;
        }
        $at = \DateTimeImmutable::createFromFormat(\DATE_RFC7231, $raw);
        if ($at === false) {
            return null;
        }
        return max(0.0, (float) $at->format('U.u') - (float) $now->format('U.u'));
    }
}
