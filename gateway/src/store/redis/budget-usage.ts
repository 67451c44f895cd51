import { CALL_OUTCOMES, type CallOutcome } from '@keygate/contracts/gateway';
import { type BucketRetention, billingRowsOf } from '../../budget/call-buckets.ts';
import type { BudgetUsageRow, BudgetUsageStore } from '../../budget/usage-meter.ts';
import { createRedisCallBuckets } from './call-buckets.ts';
import type { RedisClient } from './connection.ts';
import type { RedisKeyLayout, RedisKeyNames } from './keys.ts';
import type { ScriptRunner } from './scripts.ts';

/** Billing usage is kept 400 days, so a year's closed months can be exported again. */
const RETENTION_SECONDS = 400 * 86_400;
const FLUSH_MARKER_SECONDS = 7 * 86_400;

/** The UTC days in [from, to), as YYYY-MM-DD. */
function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let ms = Date.parse(`${from}T00:00:00Z`); ; ms += 86_400_000) {
    const day = new Date(ms).toISOString().slice(0, 10);
    if (day >= to) return days;
    days.push(day);
  }
}

function rowsOf(subject: string, day: string, hash: Record<string, string>): BudgetUsageRow[] {
  return CALL_OUTCOMES.filter((outcome) => hash[outcome] !== undefined).map((outcome: CallOutcome) => ({
    subject,
    day,
    outcome,
    calls: Number(hash[outcome]),
    cost: Number(hash[`${outcome}:cost`] ?? 0),
  }));
}

/**
 * Billing usage in Redis: a hash per subject and day in the subject's slot group (its identity's or
 * key's), a set per group and day of the subjects with usage, one script per group and flush;
 * with the analytics buckets of call-buckets.ts, which the same flushes write.
 */
export function createRedisBudgetUsage(
  client: RedisClient,
  layout: RedisKeyLayout,
  run: ScriptRunner,
  runCallBuckets: ScriptRunner,
  retention: BucketRetention,
): BudgetUsageStore {
  const buckets = createRedisCallBuckets(client, layout, runCallBuckets, retention);
  async function read(names: RedisKeyNames, subject: string, days: string[]): Promise<BudgetUsageRow[]> {
    const hashes = await Promise.all(days.map((day) => client.hgetall(names.budgetUsage(subject, day))));
    return hashes.flatMap((hash, i) => rowsOf(subject, days[i]!, hash));
  }
  const usage: BudgetUsageStore = {
    ...buckets,
    async addCallUsage(rows, flushId) {
      // Each half has its own flush marker: a retry after one half landed adds only the other.
      await Promise.all([
        usage.addBudgetUsage(billingRowsOf(rows), flushId),
        buckets.addCallUsage(rows, flushId),
      ]);
    },
    async addBudgetUsage(rows, flushId) {
      const byGroup = new Map<RedisKeyNames, BudgetUsageRow[]>();
      for (const row of rows) {
        const names = layout.forKey(row.subject);
        const group = byGroup.get(names);
        if (group) group.push(row);
        else byGroup.set(names, [row]);
      }
      await Promise.all(
        [...byGroup].map(([names, group]) => {
          const keys = [names.budgetUsageFlush(flushId)];
          const args: (string | number)[] = [RETENTION_SECONDS, FLUSH_MARKER_SECONDS];
          for (const row of group) {
            keys.push(names.budgetUsage(row.subject, row.day), names.budgetUsageDay(row.day));
            args.push(row.subject, row.outcome, row.calls, row.cost);
          }
          return run(keys.length, ...keys, ...args);
        }),
      );
    },
    readBudgetUsage: (subject, from, to) => read(layout.forKey(subject), subject, daysOf(from, to)),
    async listBudgetUsage(from, to) {
      const days = daysOf(from, to);
      const perGroup = await Promise.all(
        layout.groups.map(async (names) => {
          const subjects = await Promise.all(days.map((day) => client.smembers(names.budgetUsageDay(day))));
          const rows = await Promise.all(
            days.flatMap((day, i) =>
              (subjects[i] ?? []).map(async (subject) =>
                rowsOf(subject, day, await client.hgetall(names.budgetUsage(subject, day))),
              ),
            ),
          );
          return rows.flat();
        }),
      );
      return perGroup.flat();
    },
  };
  return usage;
}
