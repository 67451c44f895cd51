import assert from 'node:assert/strict';
import {
  describePlan,
  emptyPlanValues,
  parseMeta,
  planValues,
  toIdentityRequest,
  toPlanRequest,
} from '../src/budget-form.ts';
import type { Plan } from '../src/budget-types.ts';
import { effectiveQuotas } from '../src/budget-types.ts';
import { currentPeriods, quotaBarOf, recentMonths } from '../src/periods.ts';

const PLAN: Plan = {
  id: 'plan_1',
  name: 'Starter',
  limits: [{ name: 'minute', window: 'minute', limit: 100 }],
  quotas: [
    { period: 'day', limit: 1000 },
    { period: 'month', limit: 10000 },
  ],
  credits: { refill: { interval: 'monthly', amount: 500, day: 15 } },
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  version: 1,
};

describe('plan form', () => {
  it('sends a stored plan back unchanged after an edit that changes nothing', () => {
    const { name, limits, quotas, credits } = PLAN;
    assert.deepEqual(toPlanRequest(planValues(PLAN)), { name, limits, quotas, credits });
  });

  it('leaves out empty quotas and limit rows, and clears the refill with credits: null', () => {
    const values = { ...emptyPlanValues(), name: 'Free' };
    values.quotas.week = ' 70 ';
    assert.deepEqual(toPlanRequest(values), {
      name: 'Free',
      limits: [],
      quotas: [{ period: 'week', limit: 70 }],
      credits: null,
    });
  });

  it('passes text that is no number on as text, so the API names the field', () => {
    const values = {
      ...emptyPlanValues(),
      name: 'x',
      refillInterval: 'daily' as const,
      refillAmount: 'lots',
    };
    values.limits = [{ name: 'minute', window: 'minute', limit: '1e3' }];
    const body = toPlanRequest(values);
    assert.deepEqual(body.limits, [{ name: 'minute', window: 'minute', limit: '1e3' }]);
    assert.deepEqual(body.credits, { refill: { interval: 'daily', amount: 'lots' } });
  });

  it('describes a plan in one line', () => {
    assert.equal(
      describePlan(PLAN),
      'minute: 100/minute · 1,000/day · 10,000/month · 500 credits monthly on day 15',
    );
    assert.equal(describePlan({ ...PLAN, limits: [], quotas: [], credits: null }), 'no limits');
  });
});

describe('identity form', () => {
  it('reads metadata as a JSON object and refuses anything else with a problem on /meta', () => {
    assert.deepEqual(parseMeta(''), {});
    assert.deepEqual(parseMeta('{"tier":"gold"}'), { meta: { tier: 'gold' } });
    assert.equal(parseMeta('[1]').problem?.errors?.[0]?.pointer, '/meta');
    assert.match(parseMeta('{tier').problem?.detail ?? '', /not valid JSON/);
  });

  it('sends starting credits as a balance and leaves out what is empty', () => {
    assert.deepEqual(
      toIdentityRequest({ externalId: 'acme', environment: 'test', planId: '', credits: '' }),
      {
        externalId: 'acme',
        environment: 'test',
      },
    );
    assert.deepEqual(
      toIdentityRequest({
        externalId: 'acme',
        environment: 'live',
        planId: 'plan_1',
        meta: { a: 1 },
        credits: '250',
      }),
      {
        externalId: 'acme',
        environment: 'live',
        planId: 'plan_1',
        meta: { a: 1 },
        credits: { remaining: 250 },
      },
    );
  });

  it('sends a credits.low level with the balance, and a level alone so the API names what is missing', () => {
    const base = { externalId: 'acme', environment: 'live' as const, planId: '' };
    assert.deepEqual(toIdentityRequest({ ...base, credits: '250', lowAt: ' 25 ' }).credits, {
      remaining: 250,
      lowAt: 25,
    });
    assert.deepEqual(toIdentityRequest({ ...base, credits: '250', lowAt: '' }).credits, { remaining: 250 });
    assert.deepEqual(toIdentityRequest({ ...base, credits: '', lowAt: '5' }).credits, {
      remaining: '',
      lowAt: 5,
    });
  });
});

describe('quota bars', () => {
  it('names the current day, ISO week and month as the usage API takes them', () => {
    assert.deepEqual(currentPeriods(Date.parse('2026-11-28T23:59:59Z')), {
      day: '2026-11-28',
      week: '2026-W48',
      month: '2026-11',
    });
    // January 1st 2027 is a Friday: it belongs to the last ISO week of 2026.
    assert.equal(currentPeriods(Date.parse('2027-01-01T00:00:00Z')).week, '2026-W53');
    assert.equal(currentPeriods(Date.parse('2024-12-30T12:00:00Z')).week, '2025-W01');
  });

  it("applies the holder's overrides over the plan's quotas, period by period", () => {
    assert.deepEqual(
      effectiveQuotas(PLAN.quotas, [
        { period: 'month', limit: 50 },
        { period: 'week', limit: 7 },
      ]),
      [
        { period: 'day', limit: 1000 },
        { period: 'week', limit: 7 },
        { period: 'month', limit: 50 },
      ],
    );
  });

  it('reads used against the limit, capped at 100% when a call overshot', () => {
    assert.equal(quotaBarOf('day', 1000, 3).text, '3 of 1,000 used today (UTC) (0%), 997 left');
    const over = quotaBarOf('month', 10, 12);
    assert.deepEqual([over.percent, over.text], [100, '12 of 10 used this month (100%), 0 left']);
  });

  it('offers the export of this month and the ones before, across a year end', () => {
    assert.deepEqual(recentMonths(3, Date.parse('2027-01-15T00:00:00Z')), ['2027-01', '2026-12', '2026-11']);
  });
});
