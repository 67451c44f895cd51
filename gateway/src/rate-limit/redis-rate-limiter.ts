import type { Redis } from 'ioredis';
import { type IRateLimiterOptions, RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import {
  consumeOne,
  createLimiterPool,
  type KeyRateLimiter,
  RATE_LIMIT_WINDOW_SECONDS,
} from './key-rate-limiter.ts';

/** Which limiter decided a call: the shared Redis one, or this instance's insurance limiter. */
export type LimiterSource = 'redis' | 'fallback';

export interface RedisRateLimiterOptions {
  /** A client with `enableOfflineQueue: false` (the store's), so calls fail at once while Redis is away. */
  client: Redis;
  /** Counters live at `<keyPrefix>ratelimit:<quota>:<keyId>`. */
  keyPrefix: string;
  /** Told which limiter decided each call. */
  onDecision?(source: LimiterSource): void;
}

/** Set on the options object of a consume that the insurance limiter served. */
const SERVED_BY_FALLBACK = 'keygateFallback';

/** The per-instance limiter rate-limiter-flexible calls while Redis does not answer; marks what it serves. */
class InsuranceLimiter extends RateLimiterMemory {
  override consume(key: string | number, points?: number, options: Record<string, unknown> = {}) {
    options[SERVED_BY_FALLBACK] = true;
    return super.consume(key, points, options);
  }
}

/**
 * Per-key limits shared by every gateway instance (and both secrets of a rotated key): a
 * RateLimiterRedis per quota, atomic on the server, so N instances together accept exactly the
 * quota. `rejectIfRedisNotReady` plus the client's disabled offline queue make a call fail at once
 * while Redis is unreachable, and the per-instance RateLimiterMemory insurance limiter decides
 * instead (each instance then allows the full quota on its own); nothing waits for Redis.
 * The Redis command is issued synchronously inside `consume`, so a command issued in the same
 * tick (the key's version read) travels in the same auto-pipelined round trip.
 */
export function createRedisRateLimiter(options: RedisRateLimiterOptions): KeyRateLimiter {
  const limiterFor = createLimiterPool((points) => {
    const base: IRateLimiterOptions = { points, duration: RATE_LIMIT_WINDOW_SECONDS };
    return new RateLimiterRedis({
      ...base,
      storeClient: options.client,
      keyPrefix: `${options.keyPrefix}ratelimit:${points}`,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new InsuranceLimiter({ ...base, keyPrefix: `fallback${points}` }),
    });
  });
  return {
    async consume(keyId, perMinute) {
      const marker: Record<string, unknown> = {};
      const decision = await consumeOne(limiterFor(perMinute), keyId, perMinute, marker);
      options.onDecision?.(marker[SERVED_BY_FALLBACK] === true ? 'fallback' : 'redis');
      return decision;
    },
  };
}
