import assert from 'node:assert/strict';
import type { AlertOutbox, AlertSubject } from '../../../src/alerts/alert-outbox.ts';
import { createBudgetAlerts } from '../../../src/alerts/budget-alerts.ts';
import type { BudgetVerdict } from '../../../src/budget/decide.ts';
import type { BudgetPolicy } from '../../../src/budget/policy.ts';
import { createLogger } from '../../../src/http/logger.ts';
import type { ApiKey } from '../../../src/model/model.ts';

const NOW = Date.parse('2026-11-28T10:30:00.000Z');
const DAY = { start: Date.parse('2026-11-28T00:00:00.000Z'), end: Date.parse('2026-11-29T00:00:00.000Z') };
const key = { id: 'key_1', name: 'k', environment: 'live', identityId: 'idt_1' } as ApiKey;

/** An outbox that records what it was asked, deduplicating as the store does. */
function fakeOutbox() {
  const seen = new Set<string>();
  const recorded: Array<{ type: string; data: Record<string, unknown>; subject: AlertSubject }> = [];
  let calls = 0;
  const outbox: AlertOutbox = {
    async record(type, data, subject) {
      calls++;
      if (seen.has(subject.dedupeKey)) return false;
      seen.add(subject.dedupeKey);
      recorded.push({ type, data, subject });
      return true;
    },
    async recordTest() {
      return 'msg_test';
    },
    build() {
      throw new Error('budget alerts record their events themselves');
    },
    notify() {},
  };
  return { outbox, recorded, calls: () => calls };
}

const policy: BudgetPolicy = {
  lines: [
    { kind: 'limit', name: 'burst', window: 'second', limit: 10, subject: 'key_1' },
    { kind: 'quota', name: 'day', window: 'day', limit: 10, subject: 'idt_1' },
  ],
  credits: { subject: 'idt_1', refill: null, lowAt: 3 },
};

function verdict(used: number, remaining: number, refusal: BudgetVerdict['refusal'] = null): BudgetVerdict {
  return {
    refusal,
    windows: [{ start: NOW - 500, end: NOW + 500 }, DAY],
    used: [1, used],
    credits: { remaining, refilledAt: 0 },
    refillAt: null,
  };
}

describe('budget alerts', () => {
  it('raises each quota threshold and credit level once, however many calls cross it', async () => {
    const { outbox, recorded, calls } = fakeOutbox();
    const alerts = createBudgetAlerts({ outbox, logger: createLogger('silent') });
    for (let used = 1; used <= 12; used++)
      alerts.onBudget(key, policy, verdict(used, Math.max(0, 10 - used)));
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(
      recorded.map((r) => `${r.type} ${r.data.threshold ?? r.data.remaining}`),
      ['quota.threshold 80', 'credits.low 2', 'quota.threshold 100', 'credits.exhausted 0'],
    );
    assert.equal(calls(), 4, 'a crossing already recorded went to the store again');
    const eighty = recorded.find((r) => r.data.threshold === 80)!;
    assert.equal(eighty.subject.dedupeKey, `quota.threshold:idt_1:day:${DAY.start}:80`);
    assert.equal(eighty.subject.identityId, 'idt_1');
    assert.deepEqual(eighty.data.subject, { type: 'identity', id: 'idt_1' });
    assert.equal(eighty.data.used, 8);
  });

  it('counts a refusal of the quota as reaching 100 % and a rate-limit refusal once an hour', async () => {
    const { outbox, recorded } = fakeOutbox();
    const alerts = createBudgetAlerts({ outbox, logger: createLogger('silent') });
    alerts.onBudget(key, policy, verdict(1, 9, { code: 'QUOTA_EXCEEDED', line: 1, retryAt: DAY.end }));
    alerts.onRateLimited(key, NOW);
    alerts.onRateLimited(key, NOW + 60_000);
    alerts.onRateLimited(key, NOW + 3_600_000);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(
      recorded.map((r) => r.type),
      ['quota.threshold', 'quota.threshold', 'key.rate_limited', 'key.rate_limited'],
    );
    assert.deepEqual(
      recorded.filter((r) => r.type === 'key.rate_limited').map((r) => r.data.hourStart),
      ['2026-11-28T10:00:00.000Z', '2026-11-28T11:00:00.000Z'],
    );
  });

  it('tries a crossing again on the next call when recording it failed', async () => {
    let failures = 1;
    const { outbox, recorded } = fakeOutbox();
    const flaky: AlertOutbox = {
      ...outbox,
      record: (type, data, subject) =>
        failures-- > 0 ? Promise.reject(new Error('store away')) : outbox.record(type, data, subject),
    };
    const alerts = createBudgetAlerts({ outbox: flaky, logger: createLogger('silent') });
    alerts.onRateLimited(key, NOW);
    await new Promise((resolve) => setImmediate(resolve));
    alerts.onRateLimited(key, NOW);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(recorded.length, 1);
  });
});
