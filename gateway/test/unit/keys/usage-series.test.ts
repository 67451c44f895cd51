import assert from 'node:assert/strict';
import { buildUsageSeries, chooseStepMinutes, MAX_SERIES_POINTS } from '../../../src/keys/usage-series.ts';
import type { UsageBucket } from '../../../src/model/model.ts';
import { LATENCY_BUCKETS_MS } from '../../../src/model/model.ts';

const T0 = Date.parse('2025-03-01T00:00:00.000Z');
const MINUTE = 60_000;
const DAY = 1440 * MINUTE;

function bucket(minuteOffset: number, over: Partial<UsageBucket> = {}): UsageBucket {
  const histogram = new Array<number>(LATENCY_BUCKETS_MS.length + 1).fill(0);
  histogram[4] = 2; // (3, 5] ms
  return {
    keyId: 'key_1',
    secretId: 'sec_1',
    minute: T0 + minuteOffset * MINUTE,
    calls: 2,
    errors4xx: 1,
    errors5xx: 0,
    latencyMsSum: 8,
    latencyHistogram: histogram,
    lastCallAt: new Date(T0 + minuteOffset * MINUTE).toISOString(),
    ...over,
  };
}

describe('chooseStepMinutes', () => {
  it('keeps a requested step that gives at most 288 points', () => {
    assert.equal(chooseStepMinutes(DAY, 5), 5);
    assert.equal(chooseStepMinutes(60 * MINUTE, 1), 1);
    assert.equal(chooseStepMinutes(DAY, 7), 7);
  });

  it('raises a step too fine for the range to the smallest fitting standard step', () => {
    assert.equal(chooseStepMinutes(DAY, 1), 5);
    assert.equal(chooseStepMinutes(7 * DAY, 1), 60);
    assert.equal(chooseStepMinutes(31 * DAY, 1), 180);
  });

  it('picks the finest standard step that fits when none is requested', () => {
    assert.equal(chooseStepMinutes(60 * MINUTE), 1);
    assert.equal(chooseStepMinutes(288 * MINUTE), 1);
    assert.equal(chooseStepMinutes(289 * MINUTE), 5);
    assert.equal(chooseStepMinutes(DAY), 5);
    for (const range of [MINUTE, DAY + 1, 3 * DAY, 31 * DAY]) {
      assert.ok(Math.ceil(range / (chooseStepMinutes(range) * MINUTE)) <= MAX_SERIES_POINTS);
    }
  });
});

describe('buildUsageSeries', () => {
  it('has one point per step from `from`, zero and null where nothing was called', () => {
    const series = buildUsageSeries('key_1', T0, T0 + 30 * MINUTE, 10, []);
    assert.equal(series.from, '2025-03-01T00:00:00.000Z');
    assert.equal(series.to, '2025-03-01T00:30:00.000Z');
    assert.deepEqual(
      series.points.map((p) => [p.at, p.calls, p.latencyMs]),
      [
        ['2025-03-01T00:00:00.000Z', 0, null],
        ['2025-03-01T00:10:00.000Z', 0, null],
        ['2025-03-01T00:20:00.000Z', 0, null],
      ],
    );
  });

  it("sums every secret's buckets of a step and merges their histograms for the percentiles", () => {
    const slow = new Array<number>(LATENCY_BUCKETS_MS.length + 1).fill(0);
    slow[12] = 2; // (75, 100] ms
    const series = buildUsageSeries('key_1', T0, T0 + 20 * MINUTE, 10, [
      bucket(0),
      bucket(9, { secretId: 'sec_2', errors4xx: 0, errors5xx: 2, latencyHistogram: slow }),
      bucket(10),
    ]);
    assert.deepEqual(series.points[0], {
      at: '2025-03-01T00:00:00.000Z',
      calls: 4,
      errors4xx: 1,
      errors5xx: 2,
      // ranks 2, 3.8, 3.96 of 4 calls: two in (3, 5], two in (75, 100].
      latencyMs: { p50: 5, p95: 97.5, p99: 99.5 },
    });
    assert.deepEqual(series.points[1]?.latencyMs, { p50: 4, p95: 4.9, p99: 4.98 });
  });

  it('ignores buckets outside [from, to), and a last partial step takes the rest of the range', () => {
    const series = buildUsageSeries('key_1', T0, T0 + 25 * MINUTE, 10, [bucket(-1), bucket(24), bucket(25)]);
    assert.equal(series.points.length, 3);
    assert.deepEqual(
      series.points.map((p) => p.calls),
      [0, 0, 2],
    );
  });
});
