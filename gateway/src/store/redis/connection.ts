import { Cluster, Command, Redis, type RedisOptions } from 'ioredis';
import { isClusterTarget, isSentinelTarget, type RedisTarget } from './target.ts';

/** A connection to standalone Redis or a Sentinel-found master (`Redis`), or to a Cluster. */
export type RedisClient = Redis | Cluster;

/** The part of a pino logger the Redis adapters use. */
export interface RedisLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/** Timeouts and logging shared by every Redis connection keygate opens. */
export interface RedisConnectionOptions {
  /** Opening gives up (and rejects) after this long; default 5000 ms. */
  connectTimeoutMs?: number;
  /** A command without an answer after this long rejects (a hung or partitioned Redis); default 1000 ms. */
  commandTimeoutMs?: number;
  /** Upper bound of the exponential reconnect backoff; default 2000 ms. */
  maxReconnectDelayMs?: number;
  /** After this many command timeouts in a row Redis counts as frozen: commands fail at once until a probe PING answers; default 3. */
  circuitTimeouts?: number;
  /** How often a PING probes a frozen Redis; default 500 ms. */
  circuitProbeMs?: number;
  logger?: RedisLogger;
}

/** The message of a command refused because Redis counts as frozen (never sent, so never applied). */
export const CIRCUIT_OPEN_MESSAGE = 'redis circuit open: Redis stopped answering; command not sent';

const circuitOpen = new WeakMap<RedisClient, () => boolean>();

/** False while the client's circuit is open (Redis stopped answering commands); true otherwise. */
export function isRedisAnswering(client: RedisClient): boolean {
  return !(circuitOpen.get(client)?.() ?? false);
}

/**
 * A circuit breaker on every command of `client`: after `threshold` timeouts in a row, commands
 * are rejected at once (instead of each waiting out the command timeout) until a background PING,
 * sent every `probeMs`, answers again. Any answered command resets the count.
 */
function addCircuitBreaker(
  client: RedisClient,
  threshold: number,
  probeMs: number,
  role: string,
  logger?: RedisLogger,
): void {
  const send = client.sendCommand.bind(client);
  let timeouts = 0;
  let probe: NodeJS.Timeout | null = null;
  let probing = false;
  const close = () => {
    timeouts = 0;
    if (probe === null) return;
    clearInterval(probe);
    probe = null;
    logger?.info({ role }, 'redis answering again; circuit closed');
  };
  const observe = (command: Command, promise: Promise<unknown>) => {
    promise.then(close, (error: Error) => {
      if (error?.message === 'Command timed out') {
        if (++timeouts >= threshold && probe === null && command.name !== 'quit') open();
      } else if (!String(error?.message).startsWith('redis circuit open')) timeouts = 0;
    });
  };
  const open = () => {
    logger?.warn({ role, timeouts }, 'redis stopped answering; failing fast until a probe answers');
    probe = setInterval(() => {
      if (probing || client.status !== 'ready') return;
      probing = true;
      const ping = new Command('ping', []);
      send(ping);
      ping.promise
        .then(close, () => undefined)
        .finally(() => {
          probing = false;
        });
    }, probeMs);
    probe.unref();
  };
  client.once('end', () => {
    if (probe !== null) clearInterval(probe);
  });
  circuitOpen.set(client, () => probe !== null);
  client.sendCommand = ((command: Command, ...rest: unknown[]) => {
    if (probe !== null && command.name !== 'quit') {
      command.reject(new Error(CIRCUIT_OPEN_MESSAGE));
      return command.promise;
    }
    const promise = (send as (c: Command, ...r: unknown[]) => Promise<unknown>)(command, ...rest);
    observe(command, promise);
    return promise;
  }) as Redis['sendCommand'] & Cluster['sendCommand'];
}

/** Every key and channel keygate writes starts with this unless told otherwise. */
export const DEFAULT_KEY_PREFIX = 'keygate:';

/** Reconnect delay after the n-th failed attempt: 100 ms doubling up to the cap. */
export function reconnectDelayMs(attempt: number, capMs: number): number {
  return Math.min(capMs, 100 * 2 ** Math.min(Math.max(attempt - 1, 0), 16));
}

/**
 * A lazily connecting client that fails fast while Redis is away: no offline queue (a command
 * issued while disconnected rejects at once), a command timeout, and reconnection with capped
 * backoff in the background. Commands in flight when the connection drops are rejected, never
 * re-sent on reconnect (`autoResendUnfulfilledCommands: false`): a re-sent commit or usage flush
 * could apply twice. Connection loss and recovery are logged once each.
 */
export function createRedisClient(
  target: string,
  role: string,
  options?: RedisConnectionOptions,
  overrides?: Partial<RedisOptions>,
): Redis;
export function createRedisClient(
  target: RedisTarget,
  role: string,
  options?: RedisConnectionOptions,
  overrides?: Partial<RedisOptions>,
): RedisClient;
export function createRedisClient(
  target: RedisTarget,
  role: string,
  options: RedisConnectionOptions = {},
  overrides: Partial<RedisOptions> = {},
): RedisClient {
  const base: RedisOptions = {
    lazyConnect: true,
    enableAutoPipelining: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    autoResendUnfulfilledCommands: false,
    connectTimeout: options.connectTimeoutMs ?? 5000,
    commandTimeout: options.commandTimeoutMs ?? 1000,
    retryStrategy: (attempt) => reconnectDelayMs(attempt, options.maxReconnectDelayMs ?? 2000),
    connectionName: `keygate-${role}`,
    disableClientInfo: true,
    ...overrides,
  };
  let client: RedisClient;
  if (isClusterTarget(target)) {
    const {
      lazyConnect,
      enableAutoPipelining,
      enableOfflineQueue,
      retryStrategy: _perNodeRetry,
      ...perNode
    } = base;
    client = new Cluster(target.clusterNodes, {
      lazyConnect,
      enableAutoPipelining,
      enableOfflineQueue,
      redisOptions: perNode,
      clusterRetryStrategy: (attempt) => reconnectDelayMs(attempt, options.maxReconnectDelayMs ?? 2000),
      // After a master fails, ask the cluster for the new slot owners promptly and often.
      retryDelayOnFailover: 100,
      retryDelayOnClusterDown: 100,
      slotsRefreshTimeout: options.connectTimeoutMs ?? 5000,
      slotsRefreshInterval: 1000,
      maxRedirections: 4,
    });
  } else if (isSentinelTarget(target)) {
    client = new Redis({
      ...base,
      sentinels: target.sentinels,
      name: target.name,
      // A master demoted by a switchover answers READONLY: reconnect, asking the sentinels for the
      // new master (never re-sending the refused command). ioredis' failoverDetector is left off:
      // a +switch-master arriving while reconnecting ended the connection for good in tests.
      reconnectOnError: (error) => error.message.startsWith('READONLY'),
      sentinelRetryStrategy: (attempt) => reconnectDelayMs(attempt, options.maxReconnectDelayMs ?? 2000),
    });
  } else {
    client = new Redis(target, base);
  }
  addCircuitBreaker(
    client,
    options.circuitTimeouts ?? 3,
    options.circuitProbeMs ?? 500,
    role,
    options.logger,
  );
  let lost = false;
  client.on('error', (error: Error) => {
    if (lost) return;
    lost = true;
    options.logger?.warn({ err: error, role }, 'redis connection lost; reconnecting');
  });
  client.on('ready', () => {
    if (!lost) return;
    lost = false;
    options.logger?.info({ role }, 'redis connection restored');
  });
  return client;
}

/** Connects a lazy client, rejecting (and stopping its reconnect loop) if Redis is not ready in time. */
export async function connectRedis(client: RedisClient, timeoutMs = 5000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`redis did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([client.connect(), timeout]);
  } catch (error) {
    client.disconnect();
    throw new Error(`cannot connect to redis: ${(error as Error).message}`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}

/** Quits politely when connected, otherwise just drops the socket and the reconnect loop. */
export async function closeRedis(client: RedisClient): Promise<void> {
  if (client.status === 'end') return;
  try {
    await client.quit();
  } catch {
    client.disconnect();
  }
}
