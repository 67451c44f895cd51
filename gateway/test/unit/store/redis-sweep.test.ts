import assert from 'node:assert/strict';
import type { ApiKey, SecretRecord } from '../../../src/model/model.ts';
import { openRedisKeyStore, type RedisKeyStore } from '../../../src/store/redis/redis-store.ts';
import { iso, makeActivity, makeKey, makeSecret, T0, update } from '../../store.contract.ts';
import { startRedis, type TestRedis } from '../../support/redis-server.ts';

async function seed(store: RedisKeyStore, key: Partial<ApiKey>, secret: Partial<SecretRecord> = {}) {
  const created = makeKey(key);
  const first = makeSecret(created.id, secret);
  const change = { key: created, expectedVersion: null, secrets: [first], activity: makeActivity(created) };
  assert.equal(await store.commitChange(change), true);
  return { key: created, secret: first };
}

describe('Redis sweep candidates over keys written before the sweep zsets existed', () => {
  let redis: TestRedis;
  let store: RedisKeyStore;
  let prefix: string;
  let seeded: { due: Awaited<ReturnType<typeof seed>>; expiring: ApiKey };
  before(async () => {
    redis = await startRedis();
  });
  after(async () => {
    await redis?.stop();
  });
  beforeEach(async () => {
    prefix = `${redis.keyPrefix}sweep-${Date.now()}:`;
    store = await openRedisKeyStore(redis.url, { keyPrefix: prefix });
    const due = await seed(store, { expiresAt: null }, { closesAt: iso(-1000) });
    const expiring = (await seed(store, { expiresAt: '2025-03-05' })).key;
    await seed(store, { expiresAt: '2026-01-31' });
    // What a store written by the previous version looks like: no sweep zsets, never built.
    await store.client.del(`${prefix}sweep:closing`, `${prefix}sweep:expiry`, `${prefix}sweep:ready`);
    seeded = { due, expiring };
  });
  afterEach(async () => {
    await store.close();
  });

  it('indexes them on the first call, once, and keeps them current afterwards', async () => {
    const expected = [seeded.due.key.id, seeded.expiring.id].sort();
    assert.deepEqual(await store.listSweepCandidates(T0, [7]), expected);
    assert.equal(await store.client.exists(`${prefix}sweep:ready`), 1);
    assert.equal(await store.client.exists(`${prefix}sweep:build`), 0);
    assert.equal(await store.client.zcard(`${prefix}sweep:closing`), 1);
    assert.equal(await store.client.zcard(`${prefix}sweep:expiry`), 2);
    const closed = { ...seeded.due.secret, closedAt: iso(-1000), closedReason: 'overlap_ended' as const };
    assert.equal(await store.commitChange(update(seeded.due.key, {}, [closed])), true);
    assert.deepEqual(await store.listSweepCandidates(T0, [7]), [seeded.expiring.id]);
  });

  it('answers from a full scan while another instance holds the build lock, building nothing', async () => {
    await store.client.set(`${prefix}sweep:build`, 'another-instance');
    assert.deepEqual(
      await store.listSweepCandidates(T0, [7]),
      [seeded.due.key.id, seeded.expiring.id].sort(),
    );
    assert.equal(await store.client.exists(`${prefix}sweep:ready`), 0);
    assert.equal(await store.client.exists(`${prefix}sweep:closing`), 0);
    assert.equal(await store.client.get(`${prefix}sweep:build`), 'another-instance');
  });

  it('answers the same on every instance when several ask at once, and ends built', async () => {
    const peers = await Promise.all([1, 2, 3].map(() => openRedisKeyStore(redis.url, { keyPrefix: prefix })));
    try {
      const answers = await Promise.all([store, ...peers].map((s) => s.listSweepCandidates(T0, [7])));
      for (const answer of answers) assert.deepEqual(answer, [seeded.due.key.id, seeded.expiring.id].sort());
      assert.equal(await store.client.exists(`${prefix}sweep:ready`), 1);
    } finally {
      await Promise.all(peers.map((peer) => peer.close()));
    }
  });
});
