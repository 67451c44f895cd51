import { createLocalKeyEvents, type KeyEvents } from '../keys/events.ts';
import { createRedisKeyEvents } from '../keys/redis-events.ts';
import type { KeyRateLimiter } from '../rate-limit/key-rate-limiter.ts';
import { createRedisRateLimiter, type LimiterSource } from '../rate-limit/redis-rate-limiter.ts';
import { isRedisAnswering, type RedisConnectionOptions, type RedisLogger } from './redis/connection.ts';
import { openRedisKeyStore } from './redis/redis-store.ts';
import type { RedisTarget } from './redis/target.ts';
import { openSqliteKeyStore } from './sqlite/sqlite-store.ts';
import type { KeyStore } from './store.ts';
import { withUnavailableErrors } from './unavailable-errors.ts';

/** The settings every Redis connection of a backend is opened with. */
type ConnectionSettings = Pick<
  RedisConnectionOptions,
  'connectTimeoutMs' | 'commandTimeoutMs' | 'circuitTimeouts' | 'circuitProbeMs'
>;

/** Where state lives: Redis when `redisUrl` is set, else the SQLite file. */
export interface BackendOptions extends ConnectionSettings {
  /** A standalone Redis URL, or Sentinel or Cluster settings. */
  redisUrl: RedisTarget | null;
  redisPrefix: string;
  databaseFile: string;
  logger?: RedisLogger;
  /** A Redis call failed (`operation` = store method, or `connection` for a connection error). */
  onRedisError?(operation: string): void;
  /** Which limiter decided a rate-limit call (Redis only). */
  onLimiterDecision?(source: LimiterSource): void;
}

/** An opened store; on Redis it answers 503 STORE_UNAVAILABLE (GatewayError) for every failed call. */
export interface OpenedStore {
  store: KeyStore;
  /** Redis only: true while the command connection is ready. */
  isRedisUp?(): boolean;
  /** Closes the store and every connection opened with it. */
  close(): Promise<void>;
}

/** Everything a gateway instance shares with the others: store, key events, rate limits. */
export interface GatewayBackend extends OpenedStore {
  events: KeyEvents;
  /** Redis only; the single-instance default is the in-memory limiter. */
  rateLimiter?: KeyRateLimiter;
}

/** The connection settings of `options`, for each connection the backend opens. */
function connectionOf(options: BackendOptions): RedisConnectionOptions {
  const { connectTimeoutMs, commandTimeoutMs, circuitTimeouts, circuitProbeMs, logger } = options;
  return { connectTimeoutMs, commandTimeoutMs, circuitTimeouts, circuitProbeMs, logger };
}

async function openRedis(url: RedisTarget, options: BackendOptions) {
  const store = await openRedisKeyStore(url, { ...connectionOf(options), keyPrefix: options.redisPrefix });
  store.client.on('error', () => options.onRedisError?.('connection'));
  return {
    raw: store,
    store: withUnavailableErrors(store, (method) => options.onRedisError?.(method)),
    isRedisUp: () => store.client.status === 'ready' && isRedisAnswering(store.client),
  };
}

/** Opens the store alone (the CLI): SQLite, or Redis with fail-fast connections. */
export async function openStore(options: BackendOptions): Promise<OpenedStore> {
  if (!options.redisUrl) {
    const store = openSqliteKeyStore(options.databaseFile);
    return { store, close: () => store.close() };
  }
  const { raw, store, isRedisUp } = await openRedis(options.redisUrl, options);
  return { store, isRedisUp, close: () => raw.close() };
}

/**
 * Opens what one gateway instance needs. SQLite: the file store and in-process events. Redis: the
 * store, key events over pub/sub publishing through the store's connection, and the shared rate
 * limiter on that same connection, so a key's version read and its rate-limit command share one
 * auto-pipelined round trip. Rejects if Redis does not answer within the connect timeout.
 */
export async function openGatewayBackend(options: BackendOptions): Promise<GatewayBackend> {
  if (!options.redisUrl) {
    const store = openSqliteKeyStore(options.databaseFile);
    return { store, events: createLocalKeyEvents(), close: () => store.close() };
  }
  const { raw, store, isRedisUp } = await openRedis(options.redisUrl, options);
  let events: Awaited<ReturnType<typeof createRedisKeyEvents>>;
  try {
    events = await createRedisKeyEvents(options.redisUrl, {
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
    isRedisUp,
    async close() {
      await events.close();
      await raw.close();
    },
  };
}
