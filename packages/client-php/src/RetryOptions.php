<?php

declare(strict_types=1);

namespace Keygate\Client;

use Psr\Http\Message\ResponseInterface;

/**
 * How idempotent calls (GET, HEAD, PUT, DELETE) are retried after 429, 502, 503 and 504, waiting
 * what `Retry-After` asks. POST and PATCH are never retried: sending them twice could act twice.
 */
final class RetryOptions
{
    /** Methods whose repetition has the effect of one request (RFC 9110 §9.2.2). */
    public const RETRIED_METHODS = ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'];
    /** Answers worth trying again: the rate limit, and a gateway or upstream that may recover. */
    public const RETRIED_STATUSES = [429, 502, 503, 504];
    /** Wait before retrying a 502/503/504 that gave no `Retry-After`, doubled per retry. */
    public const DEFAULT_BACKOFF_SECONDS = 1.0;

    public function __construct(
        /** Retries per call after the first attempt. */
        public readonly int $maxRetries = 2,
        /**
         * Seconds one call may spend waiting across its retries. An answer whose wait would go past
         * what is left is returned (thrown) at once, without waiting.
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
     * doubling backoff for 502/503/504.
     */
    public function delayFor(string $method, ResponseInterface $response, int $attempt, \DateTimeImmutable $now): ?float
    {
        $status = $response->getStatusCode();
        if ($attempt >= $this->maxRetries || !in_array($status, self::RETRIED_STATUSES, true)
            || !in_array(strtoupper($method), self::RETRIED_METHODS, true)) {
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
