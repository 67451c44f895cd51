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
 * 4. A 429 `QUOTA_EXCEEDED` or `CREDITS_EXHAUSTED` (a budget, not a rate) only when its `Retry-After`
 *    is at most `BUDGET_RETRY_AFTER_LIMIT_SECONDS`: a quota that resets tomorrow, or credits nothing
 *    refills (no `Retry-After`), are thrown at once as `RateLimitException`.
 * 5. A POST or PATCH answered 409 `IDEMPOTENCY_KEY_IN_USE` (its first attempt is still running) is
 *    sent again with the same key after `Retry-After` (else the backoff), as Stripe's clients do.
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
    /** The 429 codes of a spent budget (quota, credits), retried only after a short `Retry-After` (rule 4). */
    public const BUDGET_CODES = ['QUOTA_EXCEEDED', 'CREDITS_EXHAUSTED'];
    /** The longest `Retry-After` a budget 429 is retried after; a longer wait is the caller's to plan. */
    public const BUDGET_RETRY_AFTER_LIMIT_SECONDS = 10;
    /** The 409 code of a keyed request whose first attempt is still running (rule 5). */
    public const IDEMPOTENCY_KEY_IN_USE = 'IDEMPOTENCY_KEY_IN_USE';
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
        if ($attempt >= $this->maxRetries) {
            return null;
        }
        if ($status === 409) {
            $keyed = $isKeyed && in_array(strtoupper($method), self::KEYED_METHODS, true);
            return $keyed && self::problemCode($response) === self::IDEMPOTENCY_KEY_IN_USE
                ? (self::retryAfterSeconds($response, $now) ?? self::DEFAULT_BACKOFF_SECONDS * 2 ** $attempt)
                : null;
        }
        if (!in_array($status, self::retriedStatuses($method, $isKeyed), true)) {
            return null;
        }
        $delay = self::retryAfterSeconds($response, $now);
        if ($status === 429 && in_array(self::problemCode($response), self::BUDGET_CODES, true)) {
            return $delay !== null && $delay <= self::BUDGET_RETRY_AFTER_LIMIT_SECONDS ? $delay : null;
        }
        if ($delay === null && $status === 429) {
            $delay = RateLimitState::fromResponse($response, $now)?->resetSeconds;
        }
        if ($delay === null && $status !== 429) {
            $delay = self::DEFAULT_BACKOFF_SECONDS * 2 ** $attempt;
        }
        return $delay === null ? null : (float) $delay;
    }

    /** The `code` of a problem+json answer, or null; the body stays readable for the exception. */
    private static function problemCode(ResponseInterface $response): ?string
    {
        $body = $response->getBody();
        $text = (string) $body;
        if ($body->isSeekable()) {
            $body->rewind();
        }
        $decoded = json_decode($text, true);
        return is_array($decoded) && is_string($decoded['code'] ?? null) ? $decoded['code'] : null;
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
