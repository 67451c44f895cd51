import {
  ANALYTICS_GRANULARITIES,
  type AnalyticsGranularity,
  CALL_OUTCOMES,
  type CallOutcome,
} from '@keygate/contracts/gateway';
import {
  type BucketRetention,
  billingRowsOf,
  bucketStartOf,
  type CallBucket,
  type CallBucketStore,
  type CallUsageRow,
  DEFAULT_BUCKET_RETENTION,
} from './call-buckets.ts';

/** Calls and the cost they spent, of one subject (a key or an identity) on one UTC day, by outcome. */
export interface BudgetUsageRow {
  subject: string;
  /** YYYY-MM-DD (UTC). */
  day: string;
  outcome: CallOutcome;
  calls: number;
  cost: number;
}

/**
 * Where usage is kept (one implementation per backend): per-day usage for billing, and the minute,
 * hour and day buckets of analytics that the same flushes write.
 */
export interface BudgetUsageStore extends CallBucketStore {
  /**
   * Adds rows (summing into existing ones). A `flushId` makes a retry of the same rows count once
   * on a store that writes in several steps.
   */
  addBudgetUsage(rows: BudgetUsageRow[], flushId: string): Promise<void>;
  /** A subject's rows of the days in [from, to) (YYYY-MM-DD). */
  readBudgetUsage(subject: string, from: string, to: string): Promise<BudgetUsageRow[]>;
  /** Every subject's rows of the days in [from, to), in no particular order. */
  listBudgetUsage(from: string, to: string): Promise<BudgetUsageRow[]>;
}

export interface UsageMeter {
  /**
   * Counts one call of a key (and of its identity, if it has one) in its minute: nothing is
   * written until a flush.
   */
  count(
    keyId: string,
    identityId: string | null | undefined,
    outcome: CallOutcome,
    cost: number,
    atMs: number,
    environment?: string,
  ): void;
  /** Writes what was counted; on failure keeps it for the next flush. */
  flush(): Promise<void>;
  /** Deletes the buckets past their retention; returns how many went. */
  prune(): Promise<number>;
  /** Stops the timers and writes what is left. */
  close(): Promise<void>;
}

const MINUTE_MS = 60_000;

/** Each outcome's slot in a subject's rows. */
const OUTCOME_INDEX = Object.fromEntries(CALL_OUTCOMES.map((outcome, i) => [outcome, i])) as Record<
  CallOutcome,
  number
>;

/** A subject's rows of the current minute: its environment, and one row per outcome counted. */
interface SubjectRows {
  environment: string;
  byOutcome: Array<CallUsageRow | undefined>;
}

/**
 * Calls by minute, subject, environment and outcome, with their cost, counted in memory and
 * written in batches (never a store round trip per call); the store rolls each flush up to hours
 * and days and adds it to billing's days. What a failed write held is kept and written, under the
 * same flush id, with the next one.
 */
export function createUsageMeter(options: {
  store: BudgetUsageStore;
  flushIntervalMs?: number;
  retention?: BucketRetention;
  pruneIntervalMs?: number;
  clock?: () => number;
  onFlushError?(error: unknown): void;
}): UsageMeter {
  const { store } = options;
  const retention = options.retention ?? DEFAULT_BUCKET_RETENTION;
  const clock = options.clock ?? Date.now;
  // The current minute's rows by subject (whose environment never changes), one slot per outcome:
  // a count is a map lookup with the key's own id string and an increment, nothing allocated. Those
  // of minutes already over wait in `closed` for the flush.
  let rows = new Map<string, SubjectRows>();
  let closed: CallUsageRow[] = [];
  let minute = 0;
  let pending: { rows: CallUsageRow[]; flushId: string } | null = null;
  let flushes = 0;
  const origin = Math.random().toString(36).slice(2, 10);

  function add(subject: string, environment: string, outcome: CallOutcome, cost: number): void {
    let entry = rows.get(subject);
    if (entry === undefined || entry.environment !== environment) {
      const id = entry === undefined ? subject : `${subject}\n${environment}`;
      entry = rows.get(id);
      if (entry === undefined) {
        entry = { environment, byOutcome: new Array(CALL_OUTCOMES.length) };
        rows.set(id, entry);
      }
    }
    const index = OUTCOME_INDEX[outcome];
    const row = entry.byOutcome[index];
    if (row) {
      row.calls++;
      row.cost += cost;
    } else entry.byOutcome[index] = { subject, environment, outcome, minute, calls: 1, cost };
  }

  /** Moves the current minute's rows to `closed`. */
  function closeMinute(): void {
    for (const entry of rows.values()) for (const row of entry.byOutcome) if (row) closed.push(row);
    rows = new Map();
  }

  async function flush(): Promise<void> {
    if (pending === null) {
      closeMinute();
      if (closed.length === 0) return;
      pending = { rows: closed, flushId: `${origin}-${++flushes}` };
      closed = [];
    }
    const batch = pending;
    await store.addCallUsage(batch.rows, batch.flushId);
    pending = null;
  }

  function prune(): Promise<number> {
    const now = clock();
    return store.pruneCallBuckets({
      minute: now - retention.minute,
      hour: now - retention.hour,
      day: now - retention.day,
    });
  }

  const timers = [
    setInterval(() => {
      flush().catch((error: unknown) => options.onFlushError?.(error));
    }, options.flushIntervalMs ?? 1000),
    setInterval(() => {
      prune().catch((error: unknown) => options.onFlushError?.(error));
    }, options.pruneIntervalMs ?? 3_600_000),
  ];
  for (const timer of timers) timer.unref();

  return {
    count(keyId, identityId, outcome, cost, atMs, environment = 'live') {
      if (atMs < minute || atMs >= minute + MINUTE_MS) {
        if (rows.size > 0) closeMinute();
        minute = atMs - (atMs % MINUTE_MS);
      }
      add(keyId, environment, outcome, cost);
      if (identityId) add(identityId, environment, outcome, cost);
    },
    flush,
    prune,
    async close() {
      for (const timer of timers) clearInterval(timer);
      await flush();
    },
  };
}

/**
 * Usage kept in this process's memory only (billing days and analytics buckets): the default of an
 * app built without a store (tests), held to the same rules as the stores.
 */
export function createMemoryBudgetUsage(): BudgetUsageStore {
  const days = new Map<string, BudgetUsageRow>();
  const buckets = new Map<string, CallBucket & { subject: string; granularity: AnalyticsGranularity }>();
  const applied = new Set<string>();
  const inDays = (from: string, to: string) => [...days.values()].filter((r) => r.day >= from && r.day < to);
  const addDays = (batch: BudgetUsageRow[]) => {
    for (const row of batch) {
      const id = `${row.subject}\n${row.day}\n${row.outcome}`;
      const sum = days.get(id);
      if (sum) {
        sum.calls += row.calls;
        sum.cost += row.cost;
      } else days.set(id, { ...row });
    }
  };
  return {
    async addBudgetUsage(batch, flushId) {
      if (applied.has(flushId)) return;
      applied.add(flushId);
      addDays(batch);
    },
    async addCallUsage(rows, flushId) {
      if (applied.has(flushId)) return;
      applied.add(flushId);
      for (const row of rows)
        for (const granularity of ANALYTICS_GRANULARITIES) {
          const start = bucketStartOf(row.minute, granularity);
          const id = `${row.subject}\n${granularity}\n${start}\n${row.environment}\n${row.outcome}`;
          const sum = buckets.get(id);
          if (sum) {
            sum.calls += row.calls;
            sum.cost += row.cost;
          } else
            buckets.set(id, {
              subject: row.subject,
              granularity,
              start,
              environment: row.environment,
              outcome: row.outcome,
              calls: row.calls,
              cost: row.cost,
            });
        }
      addDays(billingRowsOf(rows));
    },
    readBudgetUsage: async (subject, from, to) => inDays(from, to).filter((r) => r.subject === subject),
    listBudgetUsage: async (from, to) => inDays(from, to),
    readCallBuckets: async (subject, granularity, fromMs, toMs) =>
      [...buckets.values()]
        .filter(
          (b) =>
            b.subject === subject && b.granularity === granularity && b.start >= fromMs && b.start < toMs,
        )
        .map(({ start, environment, outcome, calls, cost }) => ({
          start,
          environment,
          outcome,
          calls,
          cost,
        })),
    async pruneCallBuckets(before) {
      let pruned = 0;
      for (const [id, bucket] of buckets)
        if (bucket.start < before[bucket.granularity]) {
          buckets.delete(id);
          pruned++;
        }
      return pruned;
    },
  };
}
