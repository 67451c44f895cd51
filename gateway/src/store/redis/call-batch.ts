import { ReplyError } from 'ioredis';
import type { RedisClient } from './connection.ts';
import type { ScriptRunner } from './scripts.ts';

/** A fixed-window call counter right after one call was counted on it. */
export interface CounterReading {
  /** Calls counted in the current window, this one included. */
  count: number;
  /** Milliseconds until the window ends. */
  msLeft: number;
}

/**
 * What every proxied request asks Redis: count the call on its key's rate-limit counter, and read
 * the key's version. Both are queued and sent, with those of every other request of the same
 * event-loop turn, as one script call.
 */
export interface RedisCallBatch {
  /** Counts one call on the counter `name`; its window of `windowSeconds` starts with its first call. */
  countCall(name: string, windowSeconds: number): Promise<CounterReading>;
  /** Field `version` of the hash `name`, or null when absent. */
  readVersion(name: string): Promise<number | null>;
}

/**
 * Most operations one script call carries; a busier turn is split. Redis runs nothing else during a
 * call, so a bound on its length bounds how long every other client of that Redis waits.
 */
export const MAX_BATCH_OPERATIONS = 200;

/**
 * The script calls that carry a turn's operations: on a Cluster (`nodeOf` names the master serving a
 * key), one per master touched, else one; each cut into calls of at most `max` operations.
 */
export function batchesOf<T>(
  items: readonly T[],
  nameOf: (item: T) => string,
  nodeOf: ((name: string) => string) | undefined,
  max: number,
): T[][] {
  const parts = new Map<string, T[]>();
  for (const item of items) {
    const node = nodeOf ? nodeOf(nameOf(item)) : '';
    const part = parts.get(node);
    if (part) part.push(item);
    else parts.set(node, [item]);
  }
  const batches: T[][] = [];
  for (const part of parts.values())
    for (let i = 0; i < part.length; i += max) batches.push(part.slice(i, i + max));
  return batches;
}

/** ARGV of a version read (a counter's ARGV is its window in seconds, always a number). */
const VERSION_READ = 'v';

interface Operation {
  name: string;
  /** `VERSION_READ`, or the counter's window in seconds. */
  arg: string;
  resolve(reply: CounterReading | number | null): void;
  reject(error: unknown): void;
}

/**
 * On a Cluster (`nodeOf` names the master serving a key), one call per master touched.
 *
 * Sends every queued operation of an event-loop turn once the turn's I/O callbacks ran
 * (setImmediate): under concurrent load one call carries several requests' counts and version
 * reads, where a command or two per request would cost ioredis CPU for each and Redis a script
 * start for each. A request alone is sent right after its own I/O callback.
 *
 * While the connection is not ready every operation fails at once (the client has no offline
 * queue): the callers fall back (the per-instance limiter, the staleness window) instead of waiting.
 * An operation Redis refuses fails alone. When Redis refuses the whole call (e.g. OOM: at maxmemory
 * a script that may write is not run at all), the version reads are asked again as plain HGETs,
 * which such a Redis still answers; the counts fail (their callers fall back).
 */
export function createRedisCallBatch(
  client: RedisClient,
  run: ScriptRunner,
  nodeOf?: (name: string) => string,
): RedisCallBatch {
  let queue: Operation[] = [];
  let scheduled = false;

  function send(operations: Operation[]): void {
    const names = operations.map((op) => op.name);
    const args = operations.map((op) => op.arg);
    let reply: Promise<unknown>;
    try {
      // The Cluster script takes one routing key and every name in ARGV (see scripts.ts).
      reply = nodeOf ? run(1, names[0]!, ...names, ...args) : run(operations.length, ...names, ...args);
    } catch (error) {
      reply = Promise.reject(error);
    }
    reply.then(
      (answer) => settle(operations, answer),
      (error: unknown) => {
        for (const op of operations) {
          if (op.arg === VERSION_READ && error instanceof ReplyError) readAlone(op);
          else op.reject(error);
        }
      },
    );
  }

  function readAlone(op: Operation): void {
    client.hget(op.name, 'version').then(
      (version) => op.resolve(version === null ? null : Number(version)),
      (error: unknown) => op.reject(error),
    );
  }

  function settle(operations: Operation[], reply: unknown): void {
    if (!Array.isArray(reply) || reply.length !== operations.length * 2) {
      const error = new Error('Redis answered the call batch with an unexpected reply');
      for (const op of operations) op.reject(error);
      return;
    }
    for (const [index, op] of operations.entries()) {
      const first = reply[index * 2] as string | number | null;
      if (typeof first === 'string' && first.startsWith('!')) op.reject(new ReplyError(first.slice(1)));
      else if (op.arg === VERSION_READ) op.resolve(first === null ? null : Number(first));
      else op.resolve({ count: Number(first), msLeft: Number(reply[index * 2 + 1]) });
    }
  }

  function flush(): void {
    scheduled = false;
    const operations = queue;
    queue = [];
    if (client.status !== 'ready') {
      const error = new Error(`Redis connection is not ready (${client.status})`);
      for (const op of operations) op.reject(error);
      return;
    }
    for (const part of batchesOf(operations, (op) => op.name, nodeOf, MAX_BATCH_OPERATIONS)) send(part);
  }

  function enqueue<T>(name: string, arg: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      queue.push({ name, arg, resolve: resolve as Operation['resolve'], reject });
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    });
  }

  return {
    countCall: (name, windowSeconds) => enqueue(name, String(windowSeconds)),
    readVersion: (name) => enqueue(name, VERSION_READ),
  };
}
