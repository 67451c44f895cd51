<?php

declare(strict_types=1);

namespace Keygate\Client\Exception;

/**
 * A call refused with 429. `errorCode` says which budget ran out: `RATE_LIMITED` (a rate: wait
 * `retryAfter`), `QUOTA_EXCEEDED` (a day, week or month quota: `retryAfter` runs to its reset) or
 * `CREDITS_EXHAUSTED` (the balance: top it up; `retryAfter` is null when nothing refills it).
 * `policy()` names the refusing limit or quota, `rateLimit` holds the announced state.
 */
final class RateLimitException extends ApiException
{
    /** The refusing limit's or quota's name (`minute`, `day`, `month`, …), when the problem names one. */
    public function policy(): ?string
    {
        return is_string($this->problem['policy'] ?? null) ? $this->problem['policy'] : null;
    }

    /** True for a spent quota or balance (`QUOTA_EXCEEDED`, `CREDITS_EXHAUSTED`), false for a rate limit. */
    public function isBudgetSpent(): bool
    {
        return in_array($this->errorCode, [ErrorCode::QUOTA_EXCEEDED, ErrorCode::CREDITS_EXHAUSTED], true);
    }
}
