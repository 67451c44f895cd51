import assert from 'node:assert/strict';
import { ANALYTICS_GRANULARITIES, type AnalyticsGranularity, BUCKET_MS } from '@keygate/contracts/gateway';
import fc from 'fast-check';
import { bucketStartOf, type CallBucket, DEFAULT_BUCKET_RETENTION } from '../src/budget/call-buckets.ts';
import { type BudgetUsageStore, createUsageMeter } from '../src/budget/usage-meter.ts';

const HOUR = 3_600_000;
const DAY = 86_400_000;

/** Buckets as sorted `start environment outcome calls cost` lines. */
const linesOf = (buckets: CallBucket[]) =>
  buckets
    .map((b) => `${new Date(b.start).toISOString()} ${b.environment} ${b.outcome} ${b.calls} ${b.cost}`)
    .sort();

/** Buckets summed into the buckets of a coarser granularity. */
function rollUp(buckets: CallBucket[], granularity: AnalyticsGranularity): string[] {
  const sums = new Map<string, CallBucket>();
  for (const b of buckets) {
    const start = bucketStartOf(b.start, granularity);
    const id = `${start} ${b.environment} ${b.outcome}`;
    const sum = sums.get(id);
    if (sum) {
      sum.calls += b.calls;
      sum.cost += b.cost;
    } else sums.set(id, { ...b, start });
  }
  return linesOf([...sums.values()]);
}

/** What every billing usage store must do; run for each backend. */
export function describeBudgetUsageContract(
  name: string,
  open: () => Promise<{ usage: BudgetUsageStore; cleanup(): Promise<void> }>,
) {
  describe(`billing usage (${name})`, () => {
    let usage: BudgetUsageStore;
    let cleanup: () => Promise<void>;
    beforeEach(async () => {
      ({ usage, cleanup } = await open());
    });
    afterEach(() => cleanup());

    it('sums calls and cost per subject, day and outcome, a key and its identity each', async () => {
      const meter = createUsageMeter({ store: usage, flushIntervalMs: 3_600_000 });
      const at = Date.parse('2026-11-28T23:59:59.000Z');
      meter.count('key_a', 'idt_1', 'VALID', 3, at);
      meter.count('key_b', 'idt_1', 'VALID', 1, at);
      meter.count('key_a', 'idt_1', 'QUOTA_EXCEEDED', 0, at);
      meter.count('key_a', 'idt_1', 'VALID', 2, at + 2_000);
      await meter.close();
      const sorted = (rows: Awaited<ReturnType<BudgetUsageStore['readBudgetUsage']>>) =>
        rows.map((r) => `${r.subject} ${r.day} ${r.outcome} ${r.calls} ${r.cost}`).sort();
      assert.deepEqual(sorted(await usage.readBudgetUsage('idt_1', '2026-11-01', '2026-12-01')), [
        'idt_1 2026-11-28 QUOTA_EXCEEDED 1 0',
        'idt_1 2026-11-28 VALID 2 4',
        'idt_1 2026-11-29 VALID 1 2',
      ]);
      assert.deepEqual(sorted(await usage.readBudgetUsage('key_a', '2026-11-29', '2026-11-30')), [
        'key_a 2026-11-29 VALID 1 2',
      ]);
      assert.deepEqual(sorted(await usage.readBudgetUsage('key_a', '2026-12-01', '2027-01-01')), []);
      assert.equal((await usage.listBudgetUsage('2026-11-01', '2026-12-01')).length, 7);
      assert.equal((await usage.listBudgetUsage('2026-11-29', '2026-11-30')).length, 2);
    });

    it('counts a retried flush once', async () => {
      const rows = [{ subject: 'idt_2', day: '2026-11-28', outcome: 'VALID' as const, calls: 4, cost: 4 }];
      await usage.addBudgetUsage(rows, 'flush-1');
      await usage.addBudgetUsage(rows, 'flush-1');
      const [row] = await usage.readBudgetUsage('idt_2', '2026-11-28', '2026-11-29');
      assert.equal(row?.calls, 4);
    });

    it('rolls each minute up into its hour and day: every roll-up is the sum of its minutes', async () => {
      const now = Date.now();
      const calls = fc.array(
        fc.record({
          key: fc.constantFrom('key_r1', 'key_r2'),
          outcome: fc.constantFrom('VALID', 'RATE_LIMITED', 'EXPIRED', 'UPSTREAM_ERROR' as const),
          cost: fc.integer({ min: 0, max: 3 }),
          agoMs: fc.integer({ min: 0, max: 40 * HOUR }),
        }),
        { minLength: 1, maxLength: 60 },
      );
      let run = 0;
      await fc.assert(
        fc.asyncProperty(calls, async (mix) => {
          const identity = `idt_r${++run}`;
          // Two meters, as two instances flushing into the same store.
          const meters = [0, 1].map(() => createUsageMeter({ store: usage, flushIntervalMs: 3_600_000 }));
          const ordered = [...mix].sort((a, b) => b.agoMs - a.agoMs);
          for (const [i, call] of ordered.entries()) {
            meters[i % 2]!.count(call.key, identity, call.outcome, call.cost, now - call.agoMs, 'test');
          }
          await Promise.all(meters.map((meter) => meter.close()));
          const from = bucketStartOf(now - 41 * HOUR, 'day');
          const to = now + DAY;
          const read = (g: AnalyticsGranularity) => usage.readCallBuckets(identity, g, from, to);
          const [minutes, hours, days] = await Promise.all(ANALYTICS_GRANULARITIES.map(read));
          assert.equal(
            minutes!.reduce((sum, b) => sum + b.calls, 0),
            mix.length,
            'every call is in one minute',
          );
          assert.deepEqual(linesOf(hours!), rollUp(minutes!, 'hour'));
          assert.deepEqual(linesOf(days!), rollUp(minutes!, 'day'));
        }),
        { numRuns: 8 },
      );
    });

    it('keeps each granularity within its retention once pruned', async () => {
      const now = Date.now();
      const meter = createUsageMeter({ store: usage, flushIntervalMs: 3_600_000 });
      const ages = [1 * HOUR, 50 * HOUR, 89 * DAY, 92 * DAY, 398 * DAY, 412 * DAY];
      for (const ago of ages) meter.count('key_p', null, 'VALID', 1, now - ago, 'live');
      await meter.flush();
      await meter.prune();
      await meter.close();
      const startsOf = async (g: AnalyticsGranularity) =>
        (await usage.readCallBuckets('key_p', g, now - 500 * DAY, now + BUCKET_MS[g]))
          .map((b) => b.start)
          .sort((a, b) => a - b);
      /** The buckets of the calls made `agesAgo` (the ones kept), oldest first. */
      const bucketsOf = (g: AnalyticsGranularity, agesAgo: number[]) =>
        agesAgo.map((ago) => bucketStartOf(now - ago, g)).sort((a, b) => a - b);
      assert.deepEqual(
        (await usage.readCallBuckets('key_p', 'minute', now - 60 * HOUR, now + 60_000)).map((b) => b.start),
        [bucketStartOf(now - HOUR, 'minute')],
        'minutes older than 48 hours are gone',
      );
      assert.deepEqual(
        await startsOf('hour'),
        bucketsOf('hour', [HOUR, 50 * HOUR, 89 * DAY]),
        'hours older than 90 days are gone',
      );
      assert.deepEqual(
        await startsOf('day'),
        bucketsOf('day', [HOUR, 50 * HOUR, 89 * DAY, 92 * DAY, 398 * DAY]),
        'days older than 400 days are gone',
      );
      assert.equal(DEFAULT_BUCKET_RETENTION.minute, 48 * HOUR);
    });

    it('adds a flush to billing usage too, and counts a retried flush once', async () => {
      const hour = bucketStartOf(Date.now() - 2 * HOUR, 'hour');
      const minute = hour + 15 * 60_000;
      const day = new Date(minute).toISOString().slice(0, 10);
      const nextDay = new Date(minute + DAY).toISOString().slice(0, 10);
      const rows = [
        { subject: 'key_f', environment: 'live', outcome: 'VALID' as const, minute, calls: 3, cost: 6 },
        {
          subject: 'key_f',
          environment: 'live',
          outcome: 'VALID' as const,
          minute: minute + 60_000,
          calls: 2,
          cost: 2,
        },
      ];
      await usage.addCallUsage(rows, 'flush-f');
      await usage.addCallUsage(rows, 'flush-f');
      const hours = await usage.readCallBuckets('key_f', 'hour', minute - HOUR, minute + HOUR);
      assert.deepEqual(linesOf(hours), [`${new Date(hour).toISOString()} live VALID 5 8`]);
      const [billed] = await usage.readBudgetUsage('key_f', day, nextDay);
      assert.deepEqual([billed?.calls, billed?.cost], [5, 8]);
    });
  });
}
