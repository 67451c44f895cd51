import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import {
  createLimiterPool,
  decisionOf,
  type KeyRateLimiter,
  RATE_LIMIT_WINDOW_SECONDS,
  type RateLimitDecision,
} from './key-rate-limiter.ts';

/** A rate-limiter-flexible limiter as far as keygate uses it. */
export interface PointsLimiter {
  consume(key: string, points?: number, options?: Record<string, unknown>): Promise<RateLimiterRes>;
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

/** Which limiter decided a call: the shared Redis one, or this instance's insurance limiter. */
export type LimiterSource = 'redis' | 'fallback';

/**
 * The shared counters the limiter reads (the Redis store implements it, with its script in
 * store/redis/scripts.ts): the limiter is below the store and does not import it.
 */
export interface SharedCallCounter {
  /** Counts one call of `keyId`: the calls in its window so far, this one included, and the ms left. */
  countKeyCall(
    keyId: string,
    quota: number,
    windowSeconds: number,
  ): Promise<{ count: number; msLeft: number }>;
}

export interface RedisRateLimiterOptions {
  /** Counts calls on the shared counters (failing at once while Redis is away). */
  store: SharedCallCounter;
  /** Told which limiter decided each call. */
  onDecision?(source: LimiterSource): void;
}

/**
 * Per-key limits shared by every gateway instance (and both secrets of a rotated key): one
 * fixed-window counter per key and quota in Redis, counted atomically on the server, so N instances
 * together accept exactly the quota. The count travels in the store's per-turn call batch, with the
 * key's version read and the other requests' counts (one script call, see store/redis/call-batch.ts);
 * the counters are rate-limiter-flexible's (`<prefix>ratelimit:<quota>:<keyId>`, count with expiry),
 * so a rolling upgrade from its RateLimiterRedis keeps one budget.
 *
 * While Redis does not answer, a per-instance rate-limiter-flexible RateLimiterMemory (the
 * insurance limiter) decides instead, at once: each instance then allows the full quota on its own.
 */
export function createRedisRateLimiter(options: RedisRateLimiterOptions): KeyRateLimiter {
  const { store, onDecision } = options;
  const insuranceFor = createLimiterPool(
    (points) =>
      new RateLimiterMemory({ points, duration: RATE_LIMIT_WINDOW_SECONDS, keyPrefix: `fallback${points}` }),
  );
  const fromRedis = (perMinute: number, count: number, msLeft: number): RateLimitDecision => {
    onDecision?.('redis');
    return decisionOf(count <= perMinute, perMinute, perMinute - count, msLeft);
  };
  return {
    consume(keyId, perMinute) {
      let counting: ReturnType<SharedCallCounter['countKeyCall']>;
      try {
        counting = store.countKeyCall(keyId, perMinute, RATE_LIMIT_WINDOW_SECONDS);
      } catch (error) {
        counting = Promise.reject(error);
      }
      return counting.then(
        (reading) => fromRedis(perMinute, reading.count, reading.msLeft),
        () => {
          onDecision?.('fallback');
          return consumeOne(insuranceFor(perMinute), keyId, perMinute);
        },
      );
    },
  };
}
