import type { AnalyticsGranularity } from '@keygate/contracts/gateway';
import { ANALYTICS_GRANULARITIES } from '@keygate/contracts/gateway';
import type Database from 'better-sqlite3';
import { billingRowsOf, bucketStartOf, type CallBucket } from '../../budget/call-buckets.ts';
import type { BudgetUsageRow, BudgetUsageStore } from '../../budget/usage-meter.ts';
import { PRUNE_ROWS_PER_TRANSACTION } from './prune.ts';

/** Flush ids remembered as applied: a retry comes from the same process, right after a failure. */
const REMEMBERED_FLUSHES = 256;

/**
 * Billing usage (table `budget_usage`) and analytics buckets (table `call_buckets`) on the
 * gateway's SQLite file; one transaction per flush, so a flush lands whole or not at all, and a
 * flush id applied already (remembered in memory: only this process's meter writes its flushes)
 * is not applied again.
 */
export function createSqliteBudgetUsage(client: Database.Database): BudgetUsageStore {
  const upsert = client.prepare<[string, string, string, number, number]>(
    `INSERT INTO budget_usage (subject, day, outcome, calls, cost) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (subject, day, outcome) DO UPDATE SET calls = calls + excluded.calls, cost = cost + excluded.cost`,
  );
  const bySubject = client.prepare<[string, string, string], BudgetUsageRow>(
    'SELECT subject, day, outcome, calls, cost FROM budget_usage WHERE subject = ? AND day >= ? AND day < ?',
  );
  const byDays = client.prepare<[string, string], BudgetUsageRow>(
    'SELECT subject, day, outcome, calls, cost FROM budget_usage WHERE day >= ? AND day < ?',
  );
  const upsertBucket = client.prepare<[string, string, number, string, string, number, number]>(
    `INSERT INTO call_buckets (subject, granularity, start, environment, outcome, calls, cost)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (subject, granularity, start, environment, outcome)
     DO UPDATE SET calls = calls + excluded.calls, cost = cost + excluded.cost`,
  );
  const buckets = client.prepare<[string, string, number, number], CallBucket>(
    `SELECT start, environment, outcome, calls, cost FROM call_buckets
     WHERE subject = ? AND granularity = ? AND start >= ? AND start < ?`,
  );
  const pruneChunk = client.prepare<[string, number, number]>(
    `DELETE FROM call_buckets WHERE rowid IN
       (SELECT rowid FROM call_buckets WHERE granularity = ? AND start < ? LIMIT ?)`,
  );
  const add = client.transaction((rows: BudgetUsageRow[]) => {
    for (const row of rows) upsert.run(row.subject, row.day, row.outcome, row.calls, row.cost);
  });
  const addCalls = client.transaction((rows: Parameters<BudgetUsageStore['addCallUsage']>[0]) => {
    for (const row of rows) {
      for (const granularity of ANALYTICS_GRANULARITIES) {
        const start = bucketStartOf(row.minute, granularity);
        upsertBucket.run(row.subject, granularity, start, row.environment, row.outcome, row.calls, row.cost);
      }
    }
    for (const row of billingRowsOf(rows)) upsert.run(row.subject, row.day, row.outcome, row.calls, row.cost);
  });

  /** Deletes one granularity's old buckets a chunk at a time, yielding to requests between chunks. */
  async function pruneOf(granularity: AnalyticsGranularity, beforeMs: number): Promise<number> {
    let total = 0;
    for (;;) {
      const { changes } = pruneChunk.run(granularity, beforeMs, PRUNE_ROWS_PER_TRANSACTION);
      total += changes;
      if (changes < PRUNE_ROWS_PER_TRANSACTION) return total;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  const applied = new Set<string>();
  /** Runs `write` unless this flush was applied; remembers it once it was. */
  function once(flushId: string, write: () => void): void {
    if (applied.has(flushId)) return;
    write();
    applied.add(flushId);
    if (applied.size > REMEMBERED_FLUSHES) applied.delete(applied.values().next().value!);
  }

  return {
    addBudgetUsage: async (rows, flushId) => once(`b ${flushId}`, () => add(rows)),
    readBudgetUsage: async (subject, from, to) => bySubject.all(subject, from, to),
    listBudgetUsage: async (from, to) => byDays.all(from, to),
    addCallUsage: async (rows, flushId) => once(`c ${flushId}`, () => addCalls(rows)),
    readCallBuckets: async (subject, granularity, fromMs, toMs) =>
      buckets.all(subject, granularity, fromMs, toMs),
    async pruneCallBuckets(before) {
      let total = 0;
      for (const granularity of ANALYTICS_GRANULARITIES)
        total += await pruneOf(granularity, before[granularity]);
      return total;
    },
  };
}
