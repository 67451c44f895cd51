<?php

declare(strict_types=1);

namespace Keygate\Client;

use Keygate\Client\Internal\FieldList;
use Psr\Http\Message\ResponseInterface;

/**
 * A key's rate-limit state as one answer announced it (IETF draft-ietf-httpapi-ratelimit-headers:
 * `RateLimit-Policy: "per-key";q=100;w=60` and `RateLimit: "per-key";r=57;t=23`).
 */
final class RateLimitState
{
    public function __construct(
        /** Name of the policy the numbers belong to, e.g. `per-key`. */
        public readonly string $policy,
        /** Calls allowed per window (`q`), when the answer named the policy. */
        public readonly ?int $limit,
        /** Window length in seconds (`w`), when the answer named the policy. */
        public readonly ?int $windowSeconds,
        /** Calls left in the current window (`r`). */
        public readonly int $remaining,
        /** Seconds until the quota resets (`t`). */
        public readonly int $resetSeconds,
        /** When the quota resets: `observedAt + resetSeconds`. */
        public readonly \DateTimeImmutable $resetsAt,
        /** `Retry-After` in seconds on a refused (429) call, else null. */
        public readonly ?int $retryAfterSeconds,
        /** When the answer was received. */
        public readonly \DateTimeImmutable $observedAt,
    ) {
    }

    /**
     * The state the headers of `$response` announce, received at `$now`; null without a usable
     * `RateLimit` header. With several policies, the one with the fewest calls left wins (it
     * refuses first).
     */
    public static function fromResponse(ResponseInterface $response, ?\DateTimeImmutable $now = null): ?self
    {
        $now ??= new \DateTimeImmutable();
        $tightest = null;
        foreach (FieldList::parse($response->getHeaderLine('RateLimit')) as $item) {
            $remaining = FieldList::integer($item, 'r');
            if ($remaining !== null && FieldList::integer($item, 't') !== null
                && ($tightest === null || $remaining < FieldList::integer($tightest, 'r'))) {
                $tightest = $item;
            }
        }
        if ($tightest === null) {
            return null;
        }
        $policy = null;
        foreach (FieldList::parse($response->getHeaderLine('RateLimit-Policy')) as $item) {
            if ($item['value'] === $tightest['value']) {
                $policy = $item;
                break;
            }
        }
        $reset = (int) FieldList::integer($tightest, 't');
        $retryAfter = RetryOptions::retryAfterSeconds($response, $now);
        return new self(
            $tightest['value'],
            FieldList::integer($policy, 'q'),
            FieldList::integer($policy, 'w'),
            (int) FieldList::integer($tightest, 'r'),
            $reset,
            $now->modify("+{$reset} seconds"),
            $retryAfter === null ? null : (int) ceil($retryAfter),
            $now,
        );
    }
}
