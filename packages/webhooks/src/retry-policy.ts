/**
 * When a failed delivery is tried again, and when an endpoint is given up on (pure functions).
 *
 * - Success is any 2xx answer; anything else (other statuses, network errors, timeouts, refused
 *   addresses) is a failure. Redirects are not followed.
 * - Schedule: entry i is the delay before attempt i + 1, counted from the previous failure; the
 *   default, after Svix, is 0, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (8 attempts over about
 *   28 h). Every delay gets ±20 % jitter. After the last entry the delivery is `failed`.
 * - Retry-After (seconds or an HTTP date) on any failed answer moves the next attempt later,
 *   never earlier: the delay is max(jittered schedule delay, Retry-After), Retry-After capped at
 *   `maxRetryAfterMs` (default 24 h) so a receiver cannot park a delivery forever.
 * - 410 Gone fails the delivery at once and disables the endpoint (`disabledReason: gone`).
 * - An endpoint whose attempts have failed without a single success for `disableAfterMs`
 *   (default 5 days) is disabled (`disabledReason: failing`). Its pending deliveries wait, in
 *   order, until it is enabled again.
 */

export interface RetryPolicy {
  /** Delay before each attempt in ms; the first is the delay of the first attempt (0). */
  scheduleMs: readonly number[];
  /** 0.2 = ±20 %. */
  jitterRatio: number;
  disableAfterMs: number;
  maxRetryAfterMs: number;
}

/** What one attempt returned (statusCode null: no HTTP answer at all). */
export interface AttemptResult {
  statusCode: number | null;
  durationMs: number;
  response: string | null;
  responseTruncated: boolean;
  retryAfter: string | null;
  error: string | null;
}

/** What happens next to the delivery and its endpoint. */
export interface DeliveryOutcome {
  status: 'succeeded' | 'failed' | 'pending';
  nextAttemptAt: Date | null;
  /** The schedule index of the next attempt. */
  scheduleStep: number;
  /** The endpoint's failure run start after this attempt (null after a success). */
  failingSince: Date | null;
  /** Disable the endpoint, and why. */
  disable: 'gone' | 'failing' | null;
}

/** `delayMs` ± `ratio`, with `random` in [0, 1). */
export function applyJitter(delayMs: number, ratio: number, random: () => number): number {
  return Math.max(0, Math.round(delayMs * (1 + ratio * (2 * random() - 1))));
}

/** Retry-After in ms from now: delta seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: Date): number | null {
  if (value === null) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // An HTTP date names its weekday and month; a bare number that is not delta-seconds is garbage.
  if (!/[A-Za-z]/.test(trimmed)) return null;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}

export function isSuccess(result: AttemptResult): boolean {
  return result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
}

/** Decides a delivery's next state after an attempt that ended at `now`. */
export function decideOutcome(input: {
  result: AttemptResult;
  scheduleStep: number;
  failingSince: Date | null;
  now: Date;
  policy: RetryPolicy;
  random: () => number;
}): DeliveryOutcome {
  const { result, now, policy } = input;
  if (isSuccess(result)) {
    return {
      status: 'succeeded',
      nextAttemptAt: null,
      scheduleStep: input.scheduleStep,
      failingSince: null,
      disable: null,
    };
  }
  const failingSince = input.failingSince ?? now;
  const failedTooLong = now.getTime() - failingSince.getTime() >= policy.disableAfterMs;
  const disable = result.statusCode === 410 ? 'gone' : failedTooLong ? 'failing' : null;
  const nextStep = input.scheduleStep + 1;
  const scheduled = policy.scheduleMs[nextStep];
  if (result.statusCode === 410 || scheduled === undefined) {
    return { status: 'failed', nextAttemptAt: null, scheduleStep: nextStep, failingSince, disable };
  }
  const retryAfter = parseRetryAfter(result.retryAfter, now);
  const delay = Math.max(
    applyJitter(scheduled, policy.jitterRatio, input.random),
    Math.min(retryAfter ?? 0, policy.maxRetryAfterMs),
  );
  return {
    status: 'pending',
    nextAttemptAt: new Date(now.getTime() + delay),
    scheduleStep: nextStep,
    failingSince,
    disable,
  };
}
