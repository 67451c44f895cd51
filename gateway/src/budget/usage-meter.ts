import type { CallOutcome } from '@keygate/contracts/gateway';

/** Calls and the cost they spent, of one subject (a key or an identity) on one UTC day, by outcome. */
export interface BudgetUsageRow {
  subject: string;
  /** YYYY-MM-DD (UTC). */
  day: string;
  outcome: CallOutcome;
  calls: number;
  cost: number;
}

/** Where per-day usage for billing is kept (one implementation per backend). */
export interface BudgetUsageStore {
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
  /** Counts one call of a key (and of its identity, if it has one): nothing is written until a flush. */
  count(
    keyId: string,
    identityId: string | null | undefined,
    outcome: CallOutcome,
    cost: number,
    atMs: number,
  ): void;
  /** Writes what was counted; on failure keeps it for the next flush. */
  flush(): Promise<void>;
  /** Stops the timer and writes what is left. */
  close(): Promise<void>;
}

const DAY_MS = 86_400_000;

/**
 * Usage by day and outcome for billing, counted in memory and written in batches (never a store
 * round trip per call), like the traffic usage beside it. What a failed write held is kept and
 * written, under the same flush id, with the next one.
 */
export function createUsageMeter(options: {
  store: BudgetUsageStore;
  flushIntervalMs?: number;
  onFlushError?(error: unknown): void;
}): UsageMeter {
  const { store } = options;
  let rows = new Map<string, BudgetUsageRow>();
  let dayStart = 0;
  let day = '';
  let pending: { rows: BudgetUsageRow[]; flushId: string } | null = null;
  let flushes = 0;
  const origin = Math.random().toString(36).slice(2, 10);

  function add(subject: string, outcome: CallOutcome, cost: number): void {
    const id = `${subject}\n${day}\n${outcome}`;
    const row = rows.get(id);
    if (row) {
      row.calls++;
      row.cost += cost;
    } else rows.set(id, { subject, day, outcome, calls: 1, cost });
  }

  async function flush(): Promise<void> {
    if (pending === null) {
      if (rows.size === 0) return;
      pending = { rows: [...rows.values()], flushId: `${origin}-${++flushes}` };
      rows = new Map();
    }
    const batch = pending;
    await store.addBudgetUsage(batch.rows, batch.flushId);
    pending = null;
  }

  const timer = setInterval(() => {
    flush().catch((error: unknown) => options.onFlushError?.(error));
  }, options.flushIntervalMs ?? 1000);
  timer.unref();

  return {
    count(keyId, identityId, outcome, cost, atMs) {
      if (atMs < dayStart || atMs >= dayStart + DAY_MS) {
        dayStart = atMs - (atMs % DAY_MS);
        day = new Date(dayStart).toISOString().slice(0, 10);
      }
      add(keyId, outcome, cost);
      if (identityId) add(identityId, outcome, cost);
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}

/** Billing usage kept in this process's memory only: the default of an app built without a store (tests). */
export function createMemoryBudgetUsage(): BudgetUsageStore {
  const rows = new Map<string, BudgetUsageRow>();
  const applied = new Set<string>();
  const inDays = (from: string, to: string) => [...rows.values()].filter((r) => r.day >= from && r.day < to);
  return {
    async addBudgetUsage(batch, flushId) {
      if (applied.has(flushId)) return;
      applied.add(flushId);
      for (const row of batch) {
        const id = `${row.subject}\n${row.day}\n${row.outcome}`;
        const sum = rows.get(id);
        if (sum) {
          sum.calls += row.calls;
          sum.cost += row.cost;
        } else rows.set(id, { ...row });
      }
    },
    readBudgetUsage: async (subject, from, to) => inDays(from, to).filter((r) => r.subject === subject),
    listBudgetUsage: async (from, to) => inDays(from, to),
  };
}
