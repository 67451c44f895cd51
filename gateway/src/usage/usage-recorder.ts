import { randomBytes } from 'node:crypto';
import { redactTokens } from '../keys/token.ts';
import { DAY_MS } from '../model/lifecycle.ts';
import { type ApiLogEntry, LATENCY_BUCKETS_MS, type LoggedBodies, type UsageBucket } from '../model/model.ts';
import type { KeyStore } from '../store/store.ts';
import { createLogBuffer } from './log-buffer.ts';

/** One authenticated call, as seen when its response finished (or the client went away). */
export interface CallRecord {
  requestId: string;
  keyId: string;
  secretId: string;
  method: string;
  /** Path and query as received; logged with token-like text redacted, capped to MAX_LOGGED_PATH characters. */
  path: string;
  /** The response status; 499 when the response never finished (the client closed the request). */
  status: number;
  latencyMs: number;
  clientIp: string;
  /** The call's trace id, when it was traced. */
  traceId?: string | undefined;
  /** Epoch ms when the response finished. */
  atMs: number;
  /** A test key's call: its request and response bodies as kept (the sandbox); live keys keep none. */
  bodies?: LoggedBodies | undefined;
}

export interface UsageRecorder {
  /** Adds a call to the in-memory aggregates and log buffer; never touches the store. */
  record(call: CallRecord): void;
  /** Writes buffered buckets and log lines to the store; on failure keeps them for the next flush. */
  flush(): Promise<void>;
  /**
   * Deletes API log lines and usage buckets older than their retentions, and Idempotency-Key
   * records past theirs; returns how many of each went.
   */
  prune(): Promise<{ logs: number; usage: number; idempotency: number }>;
  /** Starts the flush and prune timers (unref'd). */
  start(): void;
  /** Stops the timers and flushes what is left. */
  close(): Promise<void>;
  /** Buckets and log lines waiting for the next flush. */
  pending(): { buckets: number; logs: number };
}

export interface UsageRecorderOptions {
  store: Pick<KeyStore, 'recordUsage' | 'appendLogs' | 'pruneLogs' | 'pruneUsage' | 'pruneIdempotency'>;
  clock: () => number;
  flushIntervalMs: number;
  /** Days API log lines are kept. */
  retentionDays: number;
  /** Days usage buckets are kept. */
  usageRetentionDays: number;
  /**
   * Whether calls become API log lines (default true); false only in the benchmarking mode
   * KEYGATE_API_LOG=off, which still sums usage.
   */
  apiLog?: boolean;
  /** Log lines kept in memory at most; the oldest are dropped beyond it. */
  maxLogLines?: number;
  /** Usage buckets kept in memory at most (they pile up while the store is unreachable); the oldest are dropped beyond it. */
  maxBuckets?: number;
  pruneIntervalMs?: number;
  onLogsDropped?(count: number): void;
  onBucketsDropped?(count: number): void;
  onFlushError?(error: unknown): void;
}

export const MAX_LOGGED_PATH = 512;
const MINUTE_MS = 60_000;
/** Buckets per recordUsage call: each call is one idempotent unit (a store may apply it atomically). */
const FLUSH_CHUNK = 200;
/**
 * Log lines that start an early write of the log lines alone (once started, while writes succeed).
 * Held much longer, the lines outlive the young generation and are promoted: under load that turned
 * into mark-compacts and more collection time a request (--trace-gc), which a batch this size avoids.
 */
export const EARLY_FLUSH_LINES = 256;

/** ISO 8601 instants of one second share their first 20 characters: a Date is formatted once a second. */
let isoSecond = Number.NaN;
let isoSecondPrefix = '';

/** `new Date(ms).toISOString()` for epoch ms from 1970 to 9999. */
export function isoOf(epochMs: number): string {
  const ms = Math.floor(epochMs);
  const second = Math.floor(ms / 1000);
  if (second !== isoSecond) {
    isoSecond = second;
    isoSecondPrefix = new Date(second * 1000).toISOString().slice(0, 20);
  }
  const millis = ms - second * 1000;
  return `${isoSecondPrefix}${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}

function bucketIndex(latencyMs: number): number {
  const index = LATENCY_BUCKETS_MS.findIndex((bound) => latencyMs <= bound);
  return index === -1 ? LATENCY_BUCKETS_MS.length : index;
}

/** Aggregates usage per (key, secret, minute) and buffers API log lines; the store sees only flushes. */
export function createUsageRecorder(options: UsageRecorderOptions): UsageRecorder {
  const { store, clock } = options;
  const apiLog = options.apiLog ?? true;
  const maxBuckets = options.maxBuckets ?? 100_000;
  let buckets = new Map<string, UsageBucket>();
  /** The bucket the last call went to while it is still in `buckets` (null once it may have left). */
  let lastBucket: UsageBucket | null = null;
  const logs = createLogBuffer<ApiLogEntry>(options.maxLogLines ?? 50_000, (count) =>
    options.onLogsDropped?.(count),
  );
  const timers: NodeJS.Timeout[] = [];
  let flushing: Promise<void> = Promise.resolve();
  /** An early flush is queued or running (one at a time). */
  let flushingEarly = false;
  /** The last flush failed: only the timer retries, so a store that is down is not hammered. */
  let failing = false;
  /**
   * Chunks taken out for a flush that did not finish, oldest first, each under its own id: a
   * retry sends the same chunk under the same id, so one that landed (or whose outcome is unknown,
   * e.g. after a timeout) is not counted again. Chunks only ever lose buckets (trimming), never gain.
   */
  const unsent: { id: string; buckets: UsageBucket[] }[] = [];
  const unsentCount = () => unsent.reduce((sum, chunk) => sum + chunk.buckets.length, 0);

  /** Drops the oldest buckets beyond the bound: unsent chunks first, then the aggregates (a Map iterates oldest first). */
  function trimBuckets(): void {
    let excess = unsentCount() + buckets.size - maxBuckets;
    let dropped = 0;
    while (excess > 0 && unsent.length > 0) {
      const chunk = unsent[0] as { buckets: UsageBucket[] };
      const cut = Math.min(excess, chunk.buckets.length);
      chunk.buckets.splice(0, cut);
      if (chunk.buckets.length === 0) unsent.shift();
      excess -= cut;
      dropped += cut;
    }
    for (const id of buckets.keys()) {
      if (excess <= 0) break;
      buckets.delete(id);
      lastBucket = null;
      excess--;
      dropped++;
    }
    if (dropped > 0) options.onBucketsDropped?.(dropped);
  }

  /** Writes the unsent chunks (if any), then the buckets aggregated since, one chunk (and flush id) at a time. */
  async function writeUsage(): Promise<void> {
    for (let round = 0; round < 2; round++) {
      if (unsent.length === 0) {
        if (buckets.size === 0) return;
        const flushId = `usf_${randomBytes(12).toString('base64url')}`;
        const batch = [...buckets.values()];
        buckets = new Map();
        lastBucket = null;
        for (let i = 0; i < batch.length; i += FLUSH_CHUNK) {
          unsent.push({ id: `${flushId}.${i / FLUSH_CHUNK}`, buckets: batch.slice(i, i + FLUSH_CHUNK) });
        }
      }
      while (unsent.length > 0) {
        const chunk = unsent[0] as { id: string; buckets: UsageBucket[] };
        await store.recordUsage(chunk.buckets, chunk.id);
        unsent.shift();
      }
    }
  }

  /** Writes the log lines held: alone (the early write, usage waits for the timer) or after the usage. */
  async function writeLogs(): Promise<void> {
    const lines = logs.drain();
    try {
      if (lines.length > 0) await store.appendLogs(lines);
      failing = false;
    } catch (error) {
      failing = true;
      logs.restore(lines);
      options.onFlushError?.(error);
    }
  }

  /** A flush: the usage, then the log lines (which wait for the next flush while the usage fails). */
  async function writeOut(): Promise<void> {
    try {
      await writeUsage();
    } catch (error) {
      failing = true;
      // Chunks not confirmed stay in `unsent` under their ids; the next flush retries them.
      options.onFlushError?.(error);
      return;
    }
    await writeLogs();
  }

  /** The bucket a call is summed into, new if none. */
  function bucketOf(call: CallRecord, minute: number, at: string): UsageBucket {
    // Consecutive calls mostly come from one secret: its bucket is found without building the id.
    if (lastBucket !== null && lastBucket.secretId === call.secretId && lastBucket.minute === minute)
      return lastBucket;
    const id = `${call.keyId}|${call.secretId}|${minute}`;
    let bucket = buckets.get(id);
    if (!bucket) {
      bucket = {
        keyId: call.keyId,
        secretId: call.secretId,
        minute,
        calls: 0,
        errors4xx: 0,
        errors5xx: 0,
        latencyMsSum: 0,
        latencyHistogram: new Array<number>(LATENCY_BUCKETS_MS.length + 1).fill(0),
        lastCallAt: at,
      };
      buckets.set(id, bucket);
    }
    lastBucket = bucket;
    return bucket;
  }

  const recorder: UsageRecorder = {
    record(call) {
      const at = isoOf(call.atMs);
      const minute = Math.floor(call.atMs / MINUTE_MS) * MINUTE_MS;
      const bucket = bucketOf(call, minute, at);
      bucket.calls += 1;
      if (call.status >= 400 && call.status < 500) bucket.errors4xx += 1;
      if (call.status >= 500) bucket.errors5xx += 1;
      bucket.latencyMsSum += call.latencyMs;
      bucket.latencyHistogram[bucketIndex(call.latencyMs)]! += 1;
      if (at > bucket.lastCallAt) bucket.lastCallAt = at;
      if (buckets.size + unsentCount() > maxBuckets) trimBuckets();
      if (!apiLog) return;
      const line: ApiLogEntry = {
        id: call.requestId,
        keyId: call.keyId,
        secretId: call.secretId,
        at,
        method: call.method,
        path: redactTokens(call.path).slice(0, MAX_LOGGED_PATH),
        status: call.status,
        latencyMs: Math.round(call.latencyMs * 1000) / 1000,
        clientIp: call.clientIp,
      };
      if (call.traceId !== undefined) line.traceId = call.traceId;
      if (call.bodies) line.bodies = call.bodies;
      logs.push(line);
      if (logs.size >= EARLY_FLUSH_LINES && timers.length > 0 && !flushingEarly && !failing) {
        flushingEarly = true;
        flushing = flushing.then(writeLogs);
        void flushing.finally(() => {
          flushingEarly = false;
        });
      }
    },
    flush() {
      flushing = flushing.then(writeOut);
      return flushing;
    },
    async prune() {
      const now = clock();
      const logs = await store.pruneLogs(new Date(now - options.retentionDays * DAY_MS).toISOString());
      const usage = await store.pruneUsage(now - options.usageRetentionDays * DAY_MS);
      const idempotency = await store.pruneIdempotency(now);
      return { logs, usage, idempotency };
    },
    start() {
      const flushTimer = setInterval(() => void recorder.flush(), options.flushIntervalMs);
      const pruneTimer = setInterval(
        () => recorder.prune().catch((error) => options.onFlushError?.(error)),
        options.pruneIntervalMs ?? 3_600_000,
      );
      for (const timer of [flushTimer, pruneTimer]) {
        timer.unref();
        timers.push(timer);
      }
    },
    async close() {
      for (const timer of timers.splice(0)) clearInterval(timer);
      await recorder.flush();
    },
    pending: () => ({ buckets: buckets.size + unsentCount(), logs: logs.size }),
  };
  return recorder;
}
