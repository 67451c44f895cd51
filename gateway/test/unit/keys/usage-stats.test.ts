import assert from 'node:assert/strict';
import { percentileFromHistogram, summarizeUsage } from '../../../src/keys/usage-stats.ts';
import type { UsageBucket } from '../../../src/model/model.ts';
import { LATENCY_BUCKETS_MS } from '../../../src/model/model.ts';

/** A histogram with `counts[i]` calls in slot i (aligned with LATENCY_BUCKETS_MS, plus overflow). */
function histogram(counts: Record<number, number>): number[] {
  const out = new Array<number>(LATENCY_BUCKETS_MS.length + 1).fill(0);
  for (const [i, n] of Object.entries(counts)) out[Number(i)] = n;
  return out;
}

const slotOf = (upperMs: number) =>
  LATENCY_BUCKETS_MS.indexOf(upperMs as (typeof LATENCY_BUCKETS_MS)[number]);

describe('usage statistics', () => {
  describe('percentileFromHistogram', () => {
    it('interpolates linearly inside the slot holding the rank', () => {
      // 100 calls in (7.5, 10]: p50 = 7.5 + 2.5 * 50/100, p99 = 7.5 + 2.5 * 99/100.
      const h = histogram({ [slotOf(10)]: 100 });
      assert.equal(percentileFromHistogram(h, 0.5), 8.75);
      assert.equal(percentileFromHistogram(h, 0.99), 9.975);
    });
    it('walks across slots', () => {
      // 90 calls in (0, 0.5], 10 calls in (50, 75]: p50 = 0.5 * 50/90, p95 = 50 + 25 * 5/10.
      const h = histogram({ 0: 90, [slotOf(75)]: 10 });
      assert.equal(percentileFromHistogram(h, 0.5), 0.278);
      assert.equal(percentileFromHistogram(h, 0.95), 62.5);
      assert.equal(percentileFromHistogram(h, 0.99), 72.5);
    });
    it('reports the last bound for ranks in the overflow slot and null without calls', () => {
      const h = histogram({ [LATENCY_BUCKETS_MS.length]: 5 });
      assert.equal(percentileFromHistogram(h, 0.5), 30_000);
      assert.equal(percentileFromHistogram(histogram({}), 0.5), null);
    });
  });

  describe('summarizeUsage', () => {
    const bucket = (secretId: string, minute: number, over: Partial<UsageBucket>): UsageBucket => ({
      keyId: 'key_1',
      secretId,
      minute,
      calls: 0,
      errors4xx: 0,
      errors5xx: 0,
      latencyMsSum: 0,
      latencyHistogram: histogram({}),
      lastCallAt: new Date(minute + 1000).toISOString(),
      ...over,
    });

    it('merges histograms across minutes and secrets into totals and per-secret figures', () => {
      const usage = summarizeUsage('key_1', 0, 120_000, [
        bucket('sec_a', 0, {
          calls: 50,
          errors4xx: 2,
          latencyMsSum: 400,
          latencyHistogram: histogram({ [slotOf(10)]: 50 }),
        }),
        bucket('sec_a', 60_000, {
          calls: 50,
          errors5xx: 1,
          latencyMsSum: 450,
          latencyHistogram: histogram({ [slotOf(10)]: 50 }),
        }),
        bucket('sec_b', 60_000, {
          calls: 100,
          latencyMsSum: 6000,
          latencyHistogram: histogram({ [slotOf(75)]: 100 }),
        }),
      ]);
      assert.equal(usage.totals.calls, 200);
      assert.equal(usage.totals.errors4xx, 2);
      assert.equal(usage.totals.errors5xx, 1);
      // 200 calls: 100 in (7.5, 10], 100 in (50, 75]. p50 = rank 100 = top of (7.5, 10].
      assert.deepEqual(usage.totals.latencyMs, { mean: 34.25, p50: 10, p95: 72.5, p99: 74.5 });
      assert.equal(usage.totals.lastCallAt, new Date(61_000).toISOString());
      const a = usage.secrets.find((s) => s.secretId === 'sec_a');
      assert.deepEqual(a?.latencyMs, { mean: 8.5, p50: 8.75, p95: 9.875, p99: 9.975 });
      assert.equal(a?.calls, 100);
      const b = usage.secrets.find((s) => s.secretId === 'sec_b');
      assert.deepEqual(b?.latencyMs, { mean: 60, p50: 62.5, p95: 73.75, p99: 74.75 });
      assert.equal(usage.from, '1970-01-01T00:00:00.000Z');
    });

    it('has no latency figures without calls', () => {
      const usage = summarizeUsage('key_1', 0, 60_000, []);
      assert.deepEqual(usage.totals, {
        calls: 0,
        errors4xx: 0,
        errors5xx: 0,
        latencyMs: null,
        lastCallAt: null,
      });
      assert.deepEqual(usage.secrets, []);
    });
  });
});
