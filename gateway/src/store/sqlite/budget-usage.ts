import type Database from 'better-sqlite3';
import type { BudgetUsageRow, BudgetUsageStore } from '../../budget/usage-meter.ts';

/** Billing usage on the gateway's SQLite file (table `budget_usage`); one transaction per flush. */
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
  // One transaction: a flush lands whole or not at all, so a retry never counts twice.
  const add = client.transaction((rows: BudgetUsageRow[]) => {
    for (const row of rows) upsert.run(row.subject, row.day, row.outcome, row.calls, row.cost);
  });
  return {
    addBudgetUsage: async (rows) => add(rows),
    readBudgetUsage: async (subject, from, to) => bySubject.all(subject, from, to),
    listBudgetUsage: async (from, to) => byDays.all(from, to),
  };
}
