// The Redis half of open-backend.ts, imported only when Redis is configured.

import { createRedisRateLimiter } from '../../rate-limit/redis-rate-limiter.ts';
import type { BackendOptions, GatewayBackend, OpenedStore } from '../backend.ts';
import { withLedgerUnavailableErrors, withUnavailableErrors } from '../unavailable-errors.ts';
import { isRedisAnswering, type RedisConnectionOptions } from './connection.ts';
import { createRedisKeyEvents } from './redis-events.ts';
import { openRedisKeyStore } from './redis-store.ts';
import type { RedisTarget } from './target.ts';

/** The connection settings of `options`, for each connection the backend opens. */
function connectionOf(options: BackendOptions): RedisConnectionOptions {
  const { connectTimeoutMs, commandTimeoutMs, circuitTimeouts, circuitProbeMs, logger } = options;
  return { connectTimeoutMs, commandTimeoutMs, circuitTimeouts, circuitProbeMs, logger };
}

async function openRedis(url: RedisTarget, options: BackendOptions) {
  const store = await openRedisKeyStore(url, {
    ...connectionOf(options),
    keyPrefix: options.redisPrefix,
    bucketRetention: options.bucketRetention,
  });
  store.client.on('error', () => options.onRedisError?.('connection'));
  return {
    raw: store,
    store: withUnavailableErrors(store, (method) => options.onRedisError?.(method)),
    isRedisUp: () => store.client.status === 'ready' && isRedisAnswering(store.client),
  };
}

/** The store alone (the CLI), with fail-fast connections. */
export async function openRedisStore(url: RedisTarget, options: BackendOptions): Promise<OpenedStore> {
  const { raw, store, isRedisUp } = await openRedis(url, options);
  const alerts = withUnavailableErrors(raw.alerts, (method) => options.onRedisError?.(method));
  return { store, alerts, isRedisUp, close: () => raw.close() };
}

/** The store, key events over pub/sub and the shared rate limiter (see openGatewayBackend). */
export async function openRedisGatewayBackend(
  url: RedisTarget,
  options: BackendOptions,
): Promise<GatewayBackend> {
  const { raw, store, isRedisUp } = await openRedis(url, options);
  let events: Awaited<ReturnType<typeof createRedisKeyEvents>>;
  try {
    events = await createRedisKeyEvents(url, {
      ...connectionOf(options),
      keyPrefix: options.redisPrefix,
      publisher: raw.client,
    });
  } catch (error) {
    await raw.close();
    throw error;
  }
  const rateLimiter = createRedisRateLimiter({
    store: raw,
    onDecision: (source) => options.onLimiterDecision?.(source),
  });
  return {
    store,
    events,
    rateLimiter,
    ledger: withLedgerUnavailableErrors(raw.ledger, (method) => options.onRedisError?.(method)),
    budgetUsage: raw.budgetUsage,
    alerts: withUnavailableErrors(raw.alerts, (method) => options.onRedisError?.(method)),
    isRedisUp,
    async close() {
      await events.close();
      await raw.close();
    },
  };
}
