// Seeds a day of analytics into a gateway's SQLite file (after seed-keys.ts made its keys), then prints
// one JSON line with the rows written:
//   node bench/setup/seed-call-buckets.ts --db FILE [--minutes-per-key N]
// Every key gets calls in N minutes (default 6) of the 24 hours before now, spread evenly over the
// day from an offset of its own, so the minutes of different keys fall apart as real traffic does;
// one key in ten also has a refused call (RATE_LIMITED) in its first minute. The rows are the usage
// meter's (store/sqlite/budget-usage.ts): the minute buckets, their hour and day roll-ups and the
// billing day rows, each summed as the meter's flush would have summed them. One transaction and
// prepared statements: a million rows take seconds, not the minutes of one commit per row.
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { bucketStartOf, dayOf } from '../../gateway/src/budget/call-buckets.ts';
import { ANALYTICS_GRANULARITIES } from '../../packages/contracts/src/gateway/analytics.ts';

interface Statement {
  run(...values: unknown[]): unknown;
  all(...values: unknown[]): unknown[];
}
interface Database {
  prepare(sql: string): Statement;
  transaction(fn: () => void): () => void;
  pragma(sql: string): unknown;
  close(): void;
}
const requireFromBench = createRequire(import.meta.url);
const BetterSqlite3 = requireFromBench('better-sqlite3') as new (file: string) => Database;

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/** Calls of a key in one of its minutes: a few, as a client polling or a shop's page views. */
const CALLS_PER_MINUTE = [1, 3, 7, 2, 12, 5];

const { values } = parseArgs({
  options: { db: { type: 'string' }, 'minutes-per-key': { type: 'string', default: '6' } },
});
if (!values.db) throw new Error('pass --db FILE (a gateway database seed-keys.ts created)');
const minutesPerKey = Number(values['minutes-per-key']);
if (!Number.isInteger(minutesPerKey) || minutesPerKey < 1 || minutesPerKey > 1440)
  throw new Error('--minutes-per-key: a whole number from 1 to 1440');

const started = performance.now();
const client = new BetterSqlite3(values.db);
client.pragma('journal_mode = WAL');
const keys = client.prepare('SELECT id, environment FROM keys ORDER BY id').all() as Array<{
  id: string;
  environment: string;
}>;
const upsertBucket = client.prepare(
  `INSERT INTO call_buckets (subject, granularity, start, environment, outcome, calls, cost)
   VALUES (?, ?, ?, ?, ?, ?, ?)
   ON CONFLICT (subject, granularity, start, environment, outcome)
   DO UPDATE SET calls = calls + excluded.calls, cost = cost + excluded.cost`,
);
const upsertBilling = client.prepare(
  `INSERT INTO budget_usage (subject, day, outcome, calls, cost) VALUES (?, ?, ?, ?, ?)
   ON CONFLICT (subject, day, outcome) DO UPDATE SET calls = calls + excluded.calls, cost = cost + excluded.cost`,
);
// The day ends at the last whole minute before now: the load's own calls start a minute of their own.
const dayEnd = bucketStartOf(Date.now(), 'minute');
const dayStart = dayEnd - DAY_MS;
const step = Math.floor(DAY_MS / minutesPerKey / MINUTE_MS) * MINUTE_MS;
let minuteRows = 0;
client.transaction(() => {
  keys.forEach(({ id, environment }, index) => {
    // An offset of the key's own within the first step, so keys do not share their minutes.
    const offset = ((index * 7919) % Math.max(1, step / MINUTE_MS)) * MINUTE_MS;
    for (let n = 0; n < minutesPerKey; n++) {
      const minute = dayStart + offset + n * step;
      const calls = CALLS_PER_MINUTE[(index + n) % CALLS_PER_MINUTE.length]!;
      const outcomes: Array<[string, number]> = [['VALID', calls]];
      if (n === 0 && index % 10 === 0) outcomes.push(['RATE_LIMITED', 1]);
      for (const [outcome, count] of outcomes) {
        // A refused call spends nothing: cost only on admitted ones (the route's cost, 1).
        const cost = outcome === 'VALID' ? count : 0;
        for (const granularity of ANALYTICS_GRANULARITIES)
          upsertBucket.run(
            id,
            granularity,
            bucketStartOf(minute, granularity),
            environment,
            outcome,
            count,
            cost,
          );
        upsertBilling.run(id, dayOf(minute), outcome, count, cost);
        minuteRows++;
      }
    }
  });
})();
const rowsOf = (table: string) =>
  (client.prepare(`SELECT count(*) AS n FROM ${table}`).all() as Array<{ n: number }>)[0]!.n;
const callBuckets = rowsOf('call_buckets');
const billing = rowsOf('budget_usage');
client.pragma('wal_checkpoint(TRUNCATE)');
client.close();
process.stdout.write(
  `${JSON.stringify({ keys: keys.length, minuteRows, callBuckets, billing, ms: Math.round(performance.now() - started) })}\n`,
);
