import type Database from 'better-sqlite3';
import type { CreditsState } from '../../budget/decide.ts';
import type { LedgerStorage, StoredCounter, StoredOperation } from '../../budget/memory-ledger.ts';

/**
 * The in-process budget ledger's storage on the gateway's SQLite file (tables `budget_counters`,
 * `credit_balances` and `credit_operations`): point reads on a subject's first call, and one
 * transaction per flush. The statements are prepared once, here, never per call.
 */
export function createSqliteLedgerStorage(client: Database.Database): LedgerStorage {
  const readCounters = client.prepare<[string, number], { name: string; windowStart: number; used: number }>(
    'SELECT name, window_start AS windowStart, used FROM budget_counters WHERE subject = ? AND window_start > ?',
  );
  const readBalance = client.prepare<[string], CreditsState>(
    'SELECT remaining, refilled_at AS refilledAt FROM credit_balances WHERE subject = ?',
  );
  const writeCounter = client.prepare<[string, string, number, number]>(
    `INSERT INTO budget_counters (subject, name, window_start, used) VALUES (?, ?, ?, ?)
     ON CONFLICT (subject, name, window_start) DO UPDATE SET used = excluded.used`,
  );
  const writeBalance = client.prepare<[string, number, number]>(
    `INSERT INTO credit_balances (subject, remaining, refilled_at) VALUES (?, ?, ?)
     ON CONFLICT (subject) DO UPDATE SET remaining = excluded.remaining, refilled_at = excluded.refilled_at`,
  );
  const readOperation = client.prepare<[string, number], CreditsState>(
    `SELECT remaining, refilled_at AS refilledAt FROM credit_operations WHERE id = ? AND expires_at > ?`,
  );
  const writeOperation = client.prepare<[string, number, number, number]>(
    'INSERT OR REPLACE INTO credit_operations (id, remaining, refilled_at, expires_at) VALUES (?, ?, ?, ?)',
  );
  const pruneCounters = client.prepare<[number]>('DELETE FROM budget_counters WHERE window_start < ?');
  const pruneOperations = client.prepare<[number]>('DELETE FROM credit_operations WHERE expires_at <= ?');
  const save = client.transaction(
    (
      counters: StoredCounter[],
      credits: Array<{ subject: string; state: CreditsState }>,
      operations: StoredOperation[],
    ) => {
      for (const c of counters) writeCounter.run(c.subject, c.name, c.windowStart, c.used);
      for (const { subject, state } of credits) writeBalance.run(subject, state.remaining, state.refilledAt);
      for (const { id, state, expiresAt } of operations)
        writeOperation.run(id, state.remaining, state.refilledAt, expiresAt);
    },
  );
  return {
    // Windows that started up to 32 days ago can still be open (a month); older ones are over.
    load: (subject, nowMs) => ({
      counters: readCounters.all(subject, nowMs - 32 * 86_400_000),
      credits: readBalance.get(subject) ?? null,
    }),
    save: (counters, credits, operations = []) => save(counters, credits, operations),
    findOperation: (id, nowMs) => readOperation.get(id, nowMs) ?? null,
    prune: (beforeMs, nowMs) => {
      pruneCounters.run(beforeMs);
      pruneOperations.run(nowMs);
    },
  };
}
