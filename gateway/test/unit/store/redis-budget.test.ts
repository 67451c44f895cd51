import assert from 'node:assert/strict';
import { Cluster, Redis } from 'ioredis';
import type { BudgetChange } from '../../../src/model/events.ts';
import { createKeyLayout, hashSlotOf } from '../../../src/store/redis/keys.ts';
import { createRedisKeyEvents } from '../../../src/store/redis/redis-events.ts';
import { openRedisKeyStore } from '../../../src/store/redis/redis-store.ts';
import type { ClusterTarget } from '../../../src/store/redis/target.ts';
import { eventually, makeActivity, makeKey, makeSecret, T0 } from '../../store.contract.ts';
import { makeIdentity, makePlan } from '../../store-budget.contract.ts';
import { startRedis, type TestRedis } from '../../support/redis-server.ts';
import { startRedisCluster, type TestTopology } from '../../support/redis-topology.ts';

const FAST = { maxReconnectDelayMs: 300, connectTimeoutMs: 2000 };

describe('Redis key store: plans, identities and credit balances', () => {
  let redis: TestRedis;
  let prefixes = 0;
  before(async () => {
    redis = await startRedis();
  });
  after(async () => {
    await redis?.stop();
  });

  it('writes starting balances to budget:<id>, keeps a version field and announces each change', async () => {
    const keyPrefix = `${redis.keyPrefix}${++prefixes}:`;
    const store = await openRedisKeyStore(redis.url, { keyPrefix, ...FAST });
    const events = await createRedisKeyEvents(redis.url, { keyPrefix, ...FAST });
    const raw = new Redis(redis.url);
    const seen: BudgetChange[] = [];
    events.subscribeBudget((change) => seen.push(change));
    try {
      const key = makeKey({ credits: { refill: null } });
      const creditsBalance = { remaining: 40, refilledAt: T0 };
      const change = {
        key,
        expectedVersion: null,
        secrets: [makeSecret(key.id)],
        activity: makeActivity(key),
      };
      assert.equal(await store.commitChange({ ...change, creditsBalance }), true);
      assert.deepEqual(await raw.hgetall(`${keyPrefix}budget:${key.id}`), {
        credits: '40',
        refilledAt: String(T0),
      });
      const plan = makePlan();
      await store.createPlan(plan);
      await store.updatePlan({ ...plan, name: 'Max', version: 2 }, 1);
      assert.equal(await raw.hget(`${keyPrefix}plan:${plan.id}`, 'version'), '2');
      const identity = makeIdentity({ credits: { refill: null } });
      await store.createIdentity({ identity, creditsBalance: { remaining: 7, refilledAt: T0 } });
      assert.equal(await raw.hget(`${keyPrefix}identity:${identity.id}`, 'version'), '1');
      assert.equal(await raw.hget(`${keyPrefix}budget:${identity.id}`, 'credits'), '7');
      await store.deleteIdentity(identity.id);
      assert.equal(await raw.exists(`${keyPrefix}budget:${identity.id}`), 0);
      const expected: BudgetChange[] = [
        { kind: 'plan', id: plan.id },
        { kind: 'plan', id: plan.id },
        { kind: 'identity', id: identity.id },
        { kind: 'identity', id: identity.id },
      ];
      assert.ok(await eventually(async () => seen.length >= expected.length), `saw ${JSON.stringify(seen)}`);
      assert.deepEqual(seen, expected);
    } finally {
      raw.disconnect();
      await Promise.all([events.close(), store.close()]);
    }
  });

  it('refuses a key or identity newly naming a plan or an identity that does not exist, writing nothing', async () => {
    const keyPrefix = `${redis.keyPrefix}${++prefixes}:`;
    const store = await openRedisKeyStore(redis.url, { keyPrefix, ...FAST });
    try {
      for (const over of [{ planId: 'plan_gone' }, { identityId: 'idt_gone' }]) {
        const key = makeKey(over);
        const change = {
          key,
          expectedVersion: null,
          secrets: [makeSecret(key.id)],
          activity: makeActivity(key),
        };
        assert.equal(await store.commitChange(change), false);
        assert.equal(await store.getKey(key.id), null);
      }
      const orphan = makeIdentity({ planId: 'plan_gone' });
      assert.equal(await store.createIdentity({ identity: orphan }), false);
      assert.equal(
        await store.findIdentityByExternalId('live', orphan.externalId),
        null,
        'its claim was kept',
      );
      const plan = makePlan();
      await store.createPlan(plan);
      const key = makeKey({ planId: plan.id });
      const change = {
        key,
        expectedVersion: null,
        secrets: [makeSecret(key.id)],
        activity: makeActivity(key),
      };
      assert.equal(await store.commitChange(change), true);
    } finally {
      await store.close();
    }
  });

  it('delivers publishBudget to another instance', async () => {
    const keyPrefix = `${redis.keyPrefix}${++prefixes}:`;
    const [a, b] = [
      await createRedisKeyEvents(redis.url, { keyPrefix, ...FAST }),
      await createRedisKeyEvents(redis.url, { keyPrefix, ...FAST }),
    ];
    try {
      const seenA: BudgetChange[] = [];
      const seenB: BudgetChange[] = [];
      a.subscribeBudget((change) => seenA.push(change));
      b.subscribeBudget((change) => seenB.push(change));
      a.publishBudget({ kind: 'plan', id: 'plan_x' });
      assert.deepEqual(seenA, [{ kind: 'plan', id: 'plan_x' }], 'the own listener runs at once, once');
      assert.ok(await eventually(async () => seenB.length === 1));
      assert.deepEqual(seenB, [{ kind: 'plan', id: 'plan_x' }]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  describe('on a Redis Cluster', () => {
    let cluster: TestTopology<ClusterTarget>;
    before(async function () {
      this.timeout(60_000);
      cluster = await startRedisCluster();
    });
    after(async () => {
      await cluster?.stop();
    });

    it('keeps an identity’s hash and balance in its slot, and its keys’ index in each key’s slot', async () => {
      const keyPrefix = `${cluster.keyPrefix}b:`;
      const layout = createKeyLayout(keyPrefix, true);
      const names = layout.forKey('idt_abc');
      assert.equal(hashSlotOf(names.budget('idt_abc')), hashSlotOf(names.identity('idt_abc')));
      const store = await openRedisKeyStore(cluster.target, { keyPrefix });
      const raw = new Cluster(cluster.target.clusterNodes);
      try {
        const identity = makeIdentity();
        await store.createIdentity({ identity, creditsBalance: { remaining: 3, refilledAt: T0 } });
        const keys = [makeKey({ identityId: identity.id }), makeKey({ identityId: identity.id })];
        for (const key of keys) {
          const change = {
            key,
            expectedVersion: null,
            secrets: [makeSecret(key.id)],
            activity: makeActivity(key),
          };
          assert.equal(await store.commitChange(change), true);
          assert.equal(await raw.sismember(layout.forKey(key.id).identityKeys(identity.id), key.id), 1);
        }
        const budget = layout.forKey(identity.id).budget(identity.id);
        assert.equal(await raw.hget(budget, 'credits'), '3');
        assert.equal(await store.deleteIdentity(identity.id), 'in_use');
      } finally {
        raw.disconnect();
        await store.close();
      }
    });
  });
});
