import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

/** The window every per-key limit counts over, in seconds. */
export const RATE_LIMIT_WINDOW_SECONDS = 60;

/** The outcome of consuming one call from a key's budget. */
export interface RateLimitDecision {
  allowed: boolean;
  /** Calls per window (`q` of the IETF `RateLimit-Policy`). */
  limit: number;
  /** Calls left in the current window (`r`). */
  remaining: number;
  /** Seconds until the window resets (`t`), at least 1 while refusing. */
  resetSeconds: number;
}

export interface KeyRateLimiter {
  /** Consumes one call from the budget of `keyId` (shared by all of its secrets). */
  consume(keyId: string, perMinute: number): Promise<RateLimitDecision>;
}

/** A rate-limiter-flexible limiter as far as keygate uses it. */
export interface PointsLimiter {
  consume(key: string, points?: number, options?: Record<string, unknown>): Promise<RateLimiterRes>;
}

/** A decision from a counter's state: calls left (clamped at 0) and ms until the window resets. */
export function decisionOf(
  allowed: boolean,
  perMinute: number,
  remaining: number,
  msLeft: number,
): RateLimitDecision {
  return {
    allowed,
    limit: perMinute,
    remaining: Math.max(0, remaining),
    resetSeconds: Math.max(allowed ? 0 : 1, Math.ceil(msLeft / 1000)),
  };
}

/** Consumes one point of `keyId` from `limiter` and turns the outcome (or the refusal) into a decision. */
export async function consumeOne(
  limiter: PointsLimiter,
  keyId: string,
  perMinute: number,
  options: Record<string, unknown> = {},
): Promise<RateLimitDecision> {
  try {
    const res = await limiter.consume(keyId, 1, options);
    return decisionOf(true, perMinute, res.remainingPoints, res.msBeforeNext);
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes)
      return decisionOf(false, perMinute, rejection.remainingPoints, rejection.msBeforeNext);
    throw rejection;
  }
}

/** One limiter per distinct per-minute quota, created on first use. */
export function createLimiterPool<L>(create: (points: number) => L): (points: number) => L {
  const limiters = new Map<number, L>();
  return (points) => {
    let limiter = limiters.get(points);
    if (!limiter) {
      limiter = create(points);
      limiters.set(points, limiter);
    }
    return limiter;
  };
}

/**
 * In-process limiter keyed by key id, so both secrets of a rotated key share one budget. One
 * RateLimiterMemory per distinct per-minute quota, created on first use.
 */
export function createMemoryRateLimiter(): KeyRateLimiter {
  const limiterFor = createLimiterPool(
    (points) =>
      new RateLimiterMemory({ points, duration: RATE_LIMIT_WINDOW_SECONDS, keyPrefix: `key${points}` }),
  );
  return {
    consume: (keyId, perMinute) => consumeOne(limiterFor(perMinute), keyId, perMinute),
  };
}
