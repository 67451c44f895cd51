import assert from 'node:assert/strict';
import type { CreditsOperation } from '@keygate/contracts/gateway';
import { IDEMPOTENCY_RETENTION_MS } from '@keygate/contracts/idempotency';
import fc from 'fast-check';
import { createMemoryLedger } from '../../../src/budget/memory-ledger.ts';
import type { BudgetLine, BudgetPolicy } from '../../../src/budget/policy.ts';
import { mapLedgerStorage } from '../../support/map-ledger-storage.ts';

type Action =
  | { type: 'call'; cost: number }
  | { type: 'wait'; ms: number }
  | { type: 'credits'; operation: CreditsOperation; id: string | null }
  | { type: 'plan'; variant: number }
  | { type: 'charge'; delta: number }
  | { type: 'restart' };

const action: fc.Arbitrary<Action> = fc.oneof(
  { arbitrary: fc.integer({ min: 0, max: 4 }).map((cost) => ({ type: 'call' as const, cost })), weight: 8 },
  {
    arbitrary: fc
      .constantFrom(1, 400, 1_000, 30_000, 61_000, 3_600_000, 86_400_000, 7 * 86_400_000)
      .map((ms) => ({ type: 'wait' as const, ms })),
    weight: 3,
  },
  {
    arbitrary: fc
      .oneof(
        fc.nat(20).map((set) => ({ set })),
        fc.integer({ min: 1, max: 10 }).map((increment) => ({ increment })),
        fc.integer({ min: 1, max: 10 }).map((decrement) => ({ decrement })),
      )
      .chain((operation) =>
        // An id stands for a request that may come again (a retry after a crash): its first run counts.
        fc
          .option(fc.constantFrom('req-a', 'req-b'), { nil: null })
          .map((id) => ({ type: 'credits' as const, operation, id })),
      ),
    weight: 1,
  },
  { arbitrary: fc.nat(2).map((variant) => ({ type: 'plan' as const, variant })), weight: 1 },
  {
    arbitrary: fc.integer({ min: 1, max: 3 }).map((delta) => ({ type: 'charge' as const, delta })),
    weight: 1,
  },
  { arbitrary: fc.constant({ type: 'restart' as const }), weight: 1 },
);

const DAY = 86_400_000;
const line = (
  kind: 'limit' | 'quota',
  name: string,
  window: BudgetLine['window'],
  limit: number,
): BudgetLine => ({
  kind,
  name,
  window,
  limit,
  subject: 'idt_1',
});
/** Three plans a test switches between: the counts of a line carry over by name. */
const PLANS: BudgetPolicy[] = [
  {
    lines: [
      line('limit', 'burst', 'second', 6),
      line('limit', 'minute', 'minute', 15),
      line('quota', 'day', 'day', 30),
    ],
    credits: { subject: 'idt_1', refill: { interval: 'daily', amount: 25 } },
  },
  {
    lines: [line('limit', 'minute', 'minute', 8), line('quota', 'month', 'month', 40)],
    credits: { subject: 'idt_1', refill: null },
  },
  { lines: [line('quota', 'week', 'week', 12)], credits: null },
];

/** Start of the window of a line holding `t`: the model's own arithmetic, independent of periods.ts. */
function startOf(window: BudgetLine['window'], t: number): number {
  const d = new Date(t);
  switch (window) {
    case 'second':
      return Math.floor(t / 1000) * 1000;
    case 'minute':
      return Math.floor(t / 60_000) * 60_000;
    case 'hour':
      return Math.floor(t / 3_600_000) * 3_600_000;
    case 'day':
      return Math.floor(t / DAY) * DAY;
    case 'week':
      return Math.floor(t / DAY) * DAY - ((d.getUTCDay() + 6) % 7) * DAY;
    case 'month':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  }
}

/**
 * The reference model: every charge kept as an event (time, amount, the counters it went to); a
 * line's count is the sum of its events inside its current window. The balance is replayed with its
 * refill at each midnight.
 */
class Model {
  events: Array<{ t: number; amount: number; counters: string[] }> = [];
  balance: number | null = null;
  lastRefillDay = -1;
  /** When each operation id was first applied: remembered for an Idempotency-Key record's lifetime. */
  applied = new Map<string, number>();

  used(l: BudgetLine, t: number): number {
    const name = `${l.kind}:${l.name}`;
    const start = startOf(l.window, t);
    return this.events
      .filter((e) => e.t >= start && e.counters.includes(name))
      .reduce((s, e) => s + e.amount, 0);
  }

  credits(policy: BudgetPolicy, t: number): number | null {
    if (!policy.credits) return null;
    const refill = policy.credits.refill;
    const day = Math.floor(t / DAY);
    if (refill && day > this.lastRefillDay) {
      this.balance = refill.amount;
      this.lastRefillDay = day;
    }
    return this.balance ?? 0;
  }

  call(policy: BudgetPolicy, t: number, cost: number): string {
    for (const l of policy.lines)
      if (this.used(l, t) + cost > l.limit) return l.kind === 'limit' ? 'RATE_LIMITED' : 'QUOTA_EXCEEDED';
    const credits = this.credits(policy, t);
    if (credits !== null && credits < cost) return 'CREDITS_EXHAUSTED';
    this.charge(policy, t, cost);
    return 'OK';
  }

  charge(policy: BudgetPolicy, t: number, amount: number): void {
    this.events.push({ t, amount, counters: policy.lines.map((l) => `${l.kind}:${l.name}`) });
    const credits = this.credits(policy, t);
    if (credits !== null) this.balance = Math.max(0, credits - amount);
  }
}

describe('the in-process budget ledger against a reference model', () => {
  it('admits, refuses and counts as the model does through calls, refills, repeated operations, plan changes and restarts', () => {
    fc.assert(
      fc.property(fc.array(action, { minLength: 1, maxLength: 80 }), (actions) => {
        const { storage } = mapLedgerStorage();
        let now = Date.parse('2026-11-28T23:58:30.000Z');
        let ledger = createMemoryLedger({ storage, flushIntervalMs: 3_600_000 });
        let policy = PLANS[0]!;
        const model = new Model();
        for (const step of actions) {
          if (step.type === 'wait') now += step.ms;
          else if (step.type === 'plan') policy = PLANS[step.variant]!;
          else if (step.type === 'restart') {
            ledger.close();
            ledger = createMemoryLedger({ storage, flushIntervalMs: 3_600_000 });
          } else if (step.type === 'charge') {
            ledger.adjust(policy, step.delta, now);
            model.charge(policy, now, step.delta);
          } else if (step.type === 'credits') {
            if (!policy.credits) continue;
            void ledger.changeCredits(
              { ...policy, credits: policy.credits },
              step.operation,
              now,
              step.id ?? undefined,
            );
            const before = model.credits(policy, now)!;
            if (step.id !== null) {
              const first = model.applied.get(step.id);
              if (first !== undefined && now < first + IDEMPOTENCY_RETENTION_MS) continue;
              model.applied.set(step.id, now);
            }
            const op = step.operation;
            model.balance =
              'set' in op
                ? op.set
                : 'increment' in op
                  ? before + op.increment
                  : Math.max(0, before - op.decrement);
          } else {
            const verdict = ledger.spendNow!(policy, step.cost, now);
            const expected = model.call(policy, now, step.cost);
            assert.equal(
              verdict.refusal?.code ?? 'OK',
              expected,
              `a call of ${step.cost} at ${new Date(now).toISOString()}`,
            );
            for (const [i, l] of policy.lines.entries())
              assert.equal(verdict.used[i], model.used(l, now), l.name);
            assert.equal(verdict.credits?.remaining ?? null, model.credits(policy, now));
          }
        }
        ledger.close();
      }),
      { numRuns: 300 },
    );
  });
});
