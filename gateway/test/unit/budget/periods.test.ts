import assert from 'node:assert/strict';
import { limitWindowOf, quotaPeriodOf, refillSpanOf, secondsUntil } from '../../../src/budget/periods.ts';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe('budget periods', () => {
  it('aligns rate-limit windows to the epoch, so every instance agrees on them', () => {
    const now = at('2026-11-28T10:15:42.500Z');
    assert.deepEqual(limitWindowOf('second', now), {
      start: at('2026-11-28T10:15:42Z'),
      end: at('2026-11-28T10:15:43Z'),
    });
    assert.equal(iso(limitWindowOf('minute', now).start), '2026-11-28T10:15:00.000Z');
    assert.equal(iso(limitWindowOf('hour', now).end), '2026-11-28T11:00:00.000Z');
  });

  it('starts quota periods at the UTC day, the Monday of the ISO week and the first of the month', () => {
    const saturday = at('2026-11-28T23:59:59.999Z');
    assert.equal(iso(quotaPeriodOf('day', saturday).start), '2026-11-28T00:00:00.000Z');
    assert.equal(iso(quotaPeriodOf('week', saturday).start), '2026-11-23T00:00:00.000Z');
    assert.equal(iso(quotaPeriodOf('week', saturday).end), '2026-11-30T00:00:00.000Z');
    assert.equal(iso(quotaPeriodOf('week', at('2026-11-30T00:00:00Z')).start), '2026-11-30T00:00:00.000Z');
    assert.equal(iso(quotaPeriodOf('week', at('2026-11-29T12:00:00Z')).start), '2026-11-23T00:00:00.000Z');
    const december = quotaPeriodOf('month', at('2026-12-31T12:00:00Z'));
    assert.deepEqual(
      [iso(december.start), iso(december.end)],
      ['2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'],
    );
  });

  it('refills monthly on the refill day, or the last day of a shorter month', () => {
    const refill = { interval: 'monthly' as const, amount: 100, day: 31 };
    const february = refillSpanOf(refill, at('2027-02-15T00:00:00Z'));
    assert.deepEqual(
      [iso(february.start), iso(february.end)],
      ['2027-01-31T00:00:00.000Z', '2027-02-28T00:00:00.000Z'],
    );
    const onTheDay = refillSpanOf(refill, at('2027-02-28T00:00:00Z'));
    assert.equal(iso(onTheDay.start), '2027-02-28T00:00:00.000Z');
    assert.equal(iso(onTheDay.end), '2027-03-31T00:00:00.000Z');
    const january = refillSpanOf({ interval: 'monthly', amount: 1 }, at('2027-01-01T00:00:00.001Z'));
    assert.equal(iso(january.start), '2027-01-01T00:00:00.000Z');
    assert.equal(
      iso(refillSpanOf({ interval: 'daily', amount: 1 }, at('2026-11-28T10:00:00Z')).end),
      '2026-11-29T00:00:00.000Z',
    );
  });

  it('counts whole seconds to a reset, at least one', () => {
    assert.equal(secondsUntil(1_000, 999), 1);
    assert.equal(secondsUntil(10_000, 0), 10);
    assert.equal(secondsUntil(10_001, 0), 11);
  });
});
