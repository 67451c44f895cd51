import { RATE_LIMIT_WINDOW_SECONDS } from '@keygate/contracts/gateway';

export { RATE_LIMIT_WINDOW_SECONDS };

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
  /** The same, decided synchronously: only a limiter that counts in this process's memory has it. */
  consumeNow?(keyId: string, perMinute: number): RateLimitDecision;
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

/** One key's count in its current window. */
interface Window {
  count: number;
  /** Epoch ms when the window ends and the count starts over. */
  endsAt: number;
}

/**
 * In-process limiter keyed by key id, so both secrets of a rotated key share one budget: a fixed
 * window per key and quota that starts with its first call, as rate-limiter-flexible's
 * RateLimiterMemory counts (calls beyond the quota count too), decided synchronously, so memory
 * mode's key check stays synchronous (RateLimiterMemory answers through promises). Windows that
 * ended are swept once a window, in one pass (a key not seen again is forgotten within two
 * windows; RateLimiterMemory kept a timer per key instead). `clock` is for tests.
 */
export function createMemoryRateLimiter(clock: () => number = Date.now): KeyRateLimiter {
  const windowMs = RATE_LIMIT_WINDOW_SECONDS * 1000;
  /** Per quota (calls per window), per key id. */
  const quotas = new Map<number, Map<string, Window>>();
  let sweepAt = clock() + windowMs;

  function sweep(now: number): void {
    sweepAt = now + windowMs;
    for (const [quota, windows] of quotas) {
      for (const [keyId, window] of windows) if (window.endsAt <= now) windows.delete(keyId);
      if (windows.size === 0) quotas.delete(quota);
    }
  }

  function consumeNow(keyId: string, perMinute: number): RateLimitDecision {
    const now = clock();
    if (now >= sweepAt) sweep(now);
    let windows = quotas.get(perMinute);
    if (!windows) {
      windows = new Map();
      quotas.set(perMinute, windows);
    }
    let window = windows.get(keyId);
    if (!window || window.endsAt <= now) {
      window = { count: 0, endsAt: now + windowMs };
      windows.set(keyId, window);
    }
    window.count++;
    return decisionOf(window.count <= perMinute, perMinute, perMinute - window.count, window.endsAt - now);
  }

  return {
    consumeNow,
    consume: async (keyId, perMinute) => consumeNow(keyId, perMinute),
  };
}
