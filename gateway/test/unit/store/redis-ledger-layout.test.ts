import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { windowOf } from '../../../src/budget/decide.ts';
import type { BudgetLedger } from '../../../src/budget/ledger.ts';
import { createMemoryLedger } from '../../../src/budget/memory-ledger.ts';
import type { BudgetLine, BudgetPolicy } from '../../../src/budget/policy.ts';
import { openRedisKeyStore, type RedisKeyStore } from '../../../src/store/redis/redis-store.ts';
import { startRedis, type TestRedis } from '../../support/redis-server.ts';

const minute: BudgetLine = { kind: 'limit', name: 'minute', window: 'minute', limit: 5, subject: '' };
const month: BudgetLine = { kind: 'quota', name: 'month', window: 'month', limit: 8, subject: '' };
/** Mid-hour and mid-month, so the next minute is in the same hour and month. */
const T = Date.UTC(2026, 5, 10, 12, 30, 0);

/** A key on a plan: a minute limit, a month quota and a balance of its own, without refill. */
function planOf(subject: string): BudgetPolicy {
  return {
    lines: [
      { ...minute, subject },
      { ...month, subject },
    ],
    credits: { subject, refill: null },
  };
}

describe('the Redis budget ledger: where counts live', () => {
  let redis: TestRedis;
  let store: RedisKeyStore;
  let raw: Redis;
  let prefix: string;
  let subjects = 0;
  before(async () => {
    redis = await startRedis();
    prefix = `${redis.keyPrefix}layout:`;
    store = await openRedisKeyStore(redis.url, { keyPrefix: prefix });
    raw = new Redis(redis.url);
  });
  after(async () => {
    raw?.disconnect();
    await store?.close();
    await redis?.stop();
  });
  const nextKey = () => `key_layout${++subjects}`;

  it("keeps each line's count in the subject's budget hash beside its balance, no name per window", async () => {
    const subject = nextKey();
    const policy = planOf(subject);
    const now = T;
    await store.ledger.changeCredits({ ...policy, credits: policy.credits! }, { set: 10 }, now);
    await store.ledger.spend(policy, 2, now);
    await store.ledger.spend(policy, 1, now);
    const hash = await raw.hgetall(`${prefix}budget:${subject}`);
    assert.deepEqual(hash, {
      credits: '7',
      refilledAt: '0',
      'l:minute': `${windowOf(policy.lines[0]!, now).start}:3`,
      'q:month': `${windowOf(policy.lines[1]!, now).start}:3`,
    });
    assert.deepEqual(await raw.keys(`${prefix}budget:${subject}*`), [`${prefix}budget:${subject}`]);
    // A new minute starts from zero while the month goes on counting, in the same fields.
    const later = windowOf(policy.lines[0]!, now).end;
    const verdict = await store.ledger.spend(policy, 1, later);
    assert.equal(verdict.refusal, null);
    assert.deepEqual(verdict.used, [1, 4]);
    assert.equal(await raw.hlen(`${prefix}budget:${subject}`), 4);
  });

  it('names the first line without room in policy order when lines of two subjects interleave', async () => {
    const key = nextKey();
    const identity = `idt_layout${subjects}`;
    const policy: BudgetPolicy = {
      lines: [
        { ...minute, subject: key, limit: 1 },
        { kind: 'limit', name: 'hour', window: 'hour', limit: 1, subject: identity },
        { ...month, subject: key, limit: 1 },
      ],
      credits: null,
    };
    const now = T;
    assert.equal((await store.ledger.spend(policy, 1, now)).refusal, null);
    const refused = await store.ledger.spend(policy, 1, now);
    assert.equal(refused.refusal?.code, 'RATE_LIMITED');
    assert.equal(refused.refusal?.line, 0);
    assert.deepEqual(refused.used, [1, 1, 1]);
    // Next minute: the key's minute has room again, the identity's hour (line 1) refuses first.
    const next = await store.ledger.spend(policy, 1, windowOf(policy.lines[0]!, now).end);
    assert.equal(next.refusal?.code, 'RATE_LIMITED');
    assert.equal(next.refusal?.line, 1);
  });

  it('carries a count of the former per-window counter over an upgrade', async () => {
    const subject = nextKey();
    const policy = planOf(subject);
    const now = T;
    const start = windowOf(policy.lines[1]!, now).start;
    await raw.set(`${prefix}budget:${subject}:q:month:${start}`, '7', 'PX', 600_000);
    await store.ledger.changeCredits({ ...policy, credits: policy.credits! }, { set: 10 }, now);
    const admitted = await store.ledger.spend(policy, 1, now);
    assert.equal(admitted.refusal, null);
    assert.deepEqual(admitted.used, [1, 8]);
    const refused = await store.ledger.spend(policy, 1, now);
    assert.equal(refused.refusal?.code, 'QUOTA_EXCEEDED');
  });

  it('counts a call from an instance whose clock runs late into the window already opened', async () => {
    const subject = nextKey();
    const policy: BudgetPolicy = { lines: [{ ...minute, subject }], credits: null };
    const now = T;
    const ahead = windowOf(policy.lines[0]!, now).end;
    await store.ledger.spend(policy, 2, ahead);
    const late = await store.ledger.spend(policy, 1, now);
    assert.deepEqual(late.used, [3]);
    assert.deepEqual(await store.ledger.readUsed(policy, ahead), [3]);
  });

  it('decides operations of different shapes sent in one turn as the in-process ledger decides them', async () => {
    const key = nextKey();
    const identity = `idt_layout${subjects}`;
    const plan = planOf(key);
    const shared: BudgetPolicy = {
      lines: [
        { ...minute, subject: key, limit: 4 },
        { kind: 'quota', name: 'day', window: 'day', limit: 6, subject: identity },
      ],
      credits: { subject: identity, refill: { interval: 'daily', amount: 5 } },
    };
    const bare: BudgetPolicy = { lines: [{ ...month, subject: `${key}b`, limit: 3 }], credits: null };
    const reference = createMemoryLedger();
    await Promise.all(
      [store.ledger, reference].map((ledger) =>
        ledger.changeCredits({ ...plan, credits: plan.credits! }, { set: 4 }, T),
      ),
    );
    for (let turn = 0; turn < 4; turn++) {
      const now = T + turn * 1_000;
      const calls = (ledger: BudgetLedger) => [
        () => ledger.spend(plan, 1, now),
        () => ledger.spend(shared, 2, now),
        () => ledger.readCredits({ ...shared, credits: shared.credits! }, now),
        () => ledger.spend(bare, 1, now),
        () => ledger.readUsed(plan, now),
        () => ledger.spend(plan, 1, now),
      ];
      // One turn: every operation in one script call. The reference decides them in the same order.
      const got = await Promise.all(calls(store.ledger).map((call) => call()));
      const want: unknown[] = [];
      for (const call of calls(reference)) want.push(await call());
      assert.deepEqual(got, want, `turn ${turn}`);
    }
  });
});
