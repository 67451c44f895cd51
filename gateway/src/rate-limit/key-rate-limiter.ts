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

/**
 * In-process limiter keyed by key id, so both secrets of a rotated key share one budget. One
 * RateLimiterMemory per distinct per-minute quota, created on first use.
 */
export function createMemoryRateLimiter(): KeyRateLimiter {
  const limiters = new Map<number, RateLimiterMemory>();
  const limiterFor = (points: number) => {
    let limiter = limiters.get(points);
    if (!limiter) {
      limiter = new RateLimiterMemory({
        points,
        duration: RATE_LIMIT_WINDOW_SECONDS,
        keyPrefix: `key${points}`,
      });
      limiters.set(points, limiter);
    }
    return limiter;
  };
  return {
    async consume(keyId, perMinute) {
      const decide = (res: RateLimiterRes, allowed: boolean): RateLimitDecision => ({
        allowed,
        limit: perMinute,
        remaining: Math.max(0, res.remainingPoints),
        resetSeconds: Math.max(allowed ? 0 : 1, Math.ceil(res.msBeforeNext / 1000)),
      });
      try {
        return decide(await limiterFor(perMinute).consume(keyId, 1), true);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return decide(rejection, false);
        throw rejection;
      }
    },
  };
}
