import assert from 'node:assert/strict';
import type { CreditsOperation } from '@keygate/contracts/gateway';
import fc from 'fast-check';
import type { BudgetLedger } from '../../../src/budget/ledger.ts';
import { createMemoryLedger } from '../../../src/budget/memory-ledger.ts';
import type { BudgetLine, BudgetPolicy } from '../../../src/budget/policy.ts';
import { openRedisKeyStore, type RedisKeyStore } from '../../../src/store/redis/redis-store.ts';
import type { ClusterTarget } from '../../../src/store/redis/target.ts';
import { describeBudgetUsageContract } from '../../budget-usage.contract.ts';
import { startRedis, type TestRedis } from '../../support/redis-server.ts';
import { startRedisCluster, type TestTopology } from '../../support/redis-topology.ts';

type Step =
  | { type: 'call'; cost: number; plan: number }
  | { type: 'wait'; ms: number }
  | { type: 'credits'; operation: CreditsOperation; plan: number; id: string | null }
  | { type: 'charge'; delta: number; plan: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    arbitrary: fc.record({
      type: fc.constant('call' as const),
      cost: fc.integer({ min: 0, max: 4 }),
      plan: fc.nat(2),
    }),
    weight: 8,
  },
  {
    arbitrary: fc
      .constantFrom(1, 500, 1_100, 61_000, 3_600_000, 86_400_000)
      .map((ms) => ({ type: 'wait' as const, ms })),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      type: fc.constant('credits' as const),
      operation: fc.oneof(
        fc.nat(20).map((set) => ({ set })),
        fc.integer({ min: 1, max: 9 }).map((increment) => ({ increment })),
        fc.integer({ min: 1, max: 9 }).map((decrement) => ({ decrement })),
      ),
      plan: fc.nat(2),
      // A request that may come again (a retry after a crash): its first run counts, for a day.
      id: fc.option(fc.constantFrom('a', 'b'), { nil: null }),
    }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      type: fc.constant('charge' as const),
      delta: fc.integer({ min: -3, max: 3 }),
      plan: fc.nat(2),
    }),
    weight: 1,
  },
);

const line = (
  kind: BudgetLine['kind'],
  name: string,
  window: BudgetLine['window'],
  limit: number,
  subject: string,
) => ({ kind, name, window, limit, subject }) as BudgetLine;

/** Policies of a run: two keys of one identity (sharing its lines and balance), and a key alone. */
function policiesOf(run: number): BudgetPolicy[] {
  const idt = `idt_${run}`;
  const shared = [line('limit', 'burst', 'second', 5, idt), line('quota', 'day', 'day', 25, idt)];
  return [
    {
      lines: [...shared, line('quota', 'month', 'month', 12, `key_a${run}`)],
      credits: { subject: idt, refill: { interval: 'daily', amount: 15 } },
    },
    { lines: shared, credits: { subject: idt, refill: { interval: 'daily', amount: 15 } } },
    {
      lines: [
        line('limit', 'minute', 'minute', 7, `key_c${run}`),
        line('quota', 'week', 'week', 30, `key_c${run}`),
      ],
      credits: { subject: `key_c${run}`, refill: null },
    },
  ];
}

/** The Redis ledger decides as the in-process one (held to the reference model) on random sequences. */
function describeLedgerAgreement(open: () => Promise<RedisKeyStore>) {
  let store: RedisKeyStore;
  before(async () => {
    store = await open();
  });
  after(() => store?.close());

  it('admits, refuses, counts and refills as the in-process ledger does', async function () {
    this.timeout(60_000);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 40 }), async (steps) => {
        run++;
        const policies = policiesOf(run);
        const reference: BudgetLedger = createMemoryLedger();
        // Real time as the start: counters expire at absolute instants (PXAT) on the server's clock.
        let now = Date.now();
        for (const s of steps) {
          if (s.type === 'wait') {
            now += s.ms;
            continue;
          }
          const policy = policies[s.plan]!;
          if (s.type === 'credits') {
            const withCredits = { ...policy, credits: policy.credits! };
            const id = s.id === null ? undefined : `req-${run}-${s.id}`;
            const [got, want] = await Promise.all([
              store.ledger.changeCredits(withCredits, s.operation, now, id),
              reference.changeCredits(withCredits, s.operation, now, id),
            ]);
            assert.deepEqual(got, want);
          } else if (s.type === 'charge') {
            await Promise.all([
              store.ledger.adjust(policy, s.delta, now),
              reference.adjust(policy, s.delta, now),
            ]);
          } else {
            const [got, want] = await Promise.all([
              store.ledger.spend(policy, s.cost, now),
              reference.spend(policy, s.cost, now),
            ]);
            assert.deepEqual(got, want);
          }
        }
      }),
      { numRuns: 40 },
    );
  });

  it('admits exactly a quota from 200 concurrent calls on three connections', async () => {
    const peers = [store, await open(), await open()];
    try {
      const policy: BudgetPolicy = {
        lines: [line('quota', 'month', 'month', 50, `idt_race${Date.now()}`)],
        credits: null,
      };
      const now = Date.now();
      const verdicts = await Promise.all(
        Array.from({ length: 200 }, (_, i) => peers[i % 3]!.ledger.spend(policy, 1, now)),
      );
      assert.equal(verdicts.filter((v) => v.refusal === null).length, 50);
      assert.deepEqual(await store.ledger.readUsed(policy, now), [50]);
    } finally {
      await Promise.all(peers.slice(1).map((peer) => peer.close()));
    }
  });
}

describe('the Redis budget ledger', () => {
  describe('on a standalone Redis', () => {
    let redis: TestRedis;
    before(async () => {
      redis = await startRedis();
    });
    after(() => redis?.stop());
    describeLedgerAgreement(() => openRedisKeyStore(redis.url, { keyPrefix: redis.keyPrefix }));
  });

  describe('on a Redis Cluster (3 masters)', () => {
    let cluster: TestTopology<ClusterTarget>;
    before(async function () {
      this.timeout(60_000);
      cluster = await startRedisCluster();
    });
    after(() => cluster?.stop());
    describeLedgerAgreement(() => openRedisKeyStore(cluster.target, { keyPrefix: cluster.keyPrefix }));
  });
});

describe('billing usage in Redis', () => {
  let redis: TestRedis;
  let prefixes = 0;
  before(async () => {
    redis = await startRedis();
  });
  after(() => redis?.stop());
  describeBudgetUsageContract('redis', async () => {
    const store = await openRedisKeyStore(redis.url, { keyPrefix: `${redis.keyPrefix}u${++prefixes}:` });
    return { usage: store.budgetUsage, cleanup: () => store.close() };
  });
});
