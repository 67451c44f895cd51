import { type ApiLogEntry, LATENCY_BUCKETS_MS, type UsageBucket } from '../keys/model.ts';
import { redactTokens } from '../keys/token.ts';
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
  /** Epoch ms when the response finished. */
  atMs: number;
}

export interface UsageRecorder {
  /** Adds a call to the in-memory aggregates and log buffer; never touches the store. */
  record(call: CallRecord): void;
  /** Writes buffered buckets and log lines to the store; on failure keeps them for the next flush. */
  flush(): Promise<void>;
  /** Deletes API log lines and usage buckets older than their retentions; returns how many of each went. */
  prune(): Promise<{ logs: number; usage: number }>;
  /** Starts the flush and prune timers (unref'd). */
  start(): void;
  /** Stops the timers and flushes what is left. */
  close(): Promise<void>;
  /** Buckets and log lines waiting for the next flush. */
  pending(): { buckets: number; logs: number };
}

export interface UsageRecorderOptions {
  store: Pick<KeyStore, 'recordUsage' | 'appendLogs' | 'pruneLogs' | 'pruneUsage'>;
  clock: () => number;
  flushIntervalMs: number;
  /** Days API log lines are kept. */
  retentionDays: number;
  /** Days usage buckets are kept. */
  usageRetentionDays: number;
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
const DAY_MS = 86_400_000;

function bucketIndex(latencyMs: number): number {
  const index = LATENCY_BUCKETS_MS.findIndex((bound) => latencyMs <= bound);
  return index === -1 ? LATENCY_BUCKETS_MS.length : index;
}

function mergeInto(target: Map<string, UsageBucket>, bucket: UsageBucket): void {
  const id = `${bucket.keyId}|${bucket.secretId}|${bucket.minute}`;
  const existing = target.get(id);
  if (!existing) {
    target.set(id, { ...bucket, latencyHistogram: [...bucket.latencyHistogram] });
    return;
  }
  existing.calls += bucket.calls;
  existing.errors4xx += bucket.errors4xx;
  existing.errors5xx += bucket.errors5xx;
  existing.latencyMsSum += bucket.latencyMsSum;
  bucket.latencyHistogram.forEach((count, index) => {
    existing.latencyHistogram[index] = (existing.latencyHistogram[index] ?? 0) + count;
  });
  if (bucket.lastCallAt > existing.lastCallAt) existing.lastCallAt = bucket.lastCallAt;
}

/** Aggregates usage per (key, secret, minute) and buffers API log lines; the store sees only flushes. */
export function createUsageRecorder(options: UsageRecorderOptions): UsageRecorder {
  const { store, clock } = options;
  const maxBuckets = options.maxBuckets ?? 100_000;
  let buckets = new Map<string, UsageBucket>();
  const logs = createLogBuffer<ApiLogEntry>(options.maxLogLines ?? 50_000, (count) =>
    options.onLogsDropped?.(count),
  );
  const timers: NodeJS.Timeout[] = [];
  let flushing: Promise<void> = Promise.resolve();

  /** Drops the oldest buckets beyond the bound (a Map iterates oldest first). */
  function trimBuckets(): void {
    let dropped = 0;
    for (const id of buckets.keys()) {
      if (buckets.size <= maxBuckets) break;
      buckets.delete(id);
      dropped++;
    }
    if (dropped > 0) options.onBucketsDropped?.(dropped);
  }

  async function writeOut(): Promise<void> {
    const batch = [...buckets.values()];
    const lines = logs.drain();
    buckets = new Map();
    if (batch.length === 0 && lines.length === 0) return;
    let usageWritten = batch.length === 0;
    try {
      if (!usageWritten) await store.recordUsage(batch);
      usageWritten = true;
      if (lines.length > 0) await store.appendLogs(lines);
    } catch (error) {
      // Put back what was not written (aggregates merge with calls recorded meanwhile); the next flush retries.
      if (!usageWritten) {
        const newer = buckets;
        buckets = new Map();
        for (const bucket of [...batch, ...newer.values()]) mergeInto(buckets, bucket);
        trimBuckets();
      }
      logs.restore(lines);
      options.onFlushError?.(error);
    }
  }

  const recorder: UsageRecorder = {
    record(call) {
      const at = new Date(call.atMs).toISOString();
      const histogram = new Array<number>(LATENCY_BUCKETS_MS.length + 1).fill(0);
      histogram[bucketIndex(call.latencyMs)] = 1;
      mergeInto(buckets, {
        keyId: call.keyId,
        secretId: call.secretId,
        minute: Math.floor(call.atMs / MINUTE_MS) * MINUTE_MS,
        calls: 1,
        errors4xx: call.status >= 400 && call.status < 500 ? 1 : 0,
        errors5xx: call.status >= 500 ? 1 : 0,
        latencyMsSum: call.latencyMs,
        latencyHistogram: histogram,
        lastCallAt: at,
      });
      if (buckets.size > maxBuckets) trimBuckets();
      logs.push({
        id: call.requestId,
        keyId: call.keyId,
        secretId: call.secretId,
        at,
        method: call.method,
        path: redactTokens(call.path).slice(0, MAX_LOGGED_PATH),
        status: call.status,
        latencyMs: Math.round(call.latencyMs * 1000) / 1000,
        clientIp: call.clientIp,
      });
    },
    flush() {
      flushing = flushing.then(writeOut);
      return flushing;
    },
    async prune() {
      const now = clock();
      const logs = await store.pruneLogs(new Date(now - options.retentionDays * DAY_MS).toISOString());
      const usage = await store.pruneUsage(now - options.usageRetentionDays * DAY_MS);
      return { logs, usage };
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
    pending: () => ({ buckets: buckets.size, logs: logs.size }),
  };
  return recorder;
}
