import assert from 'node:assert/strict';
import { Cluster } from 'ioredis';
import { CLUSTER_SLOT_GROUPS, createKeyLayout, hashSlotOf } from '../../../src/store/redis/keys.ts';
import { openRedisKeyStore, type RedisKeyStore } from '../../../src/store/redis/redis-store.ts';
import type { ClusterTarget } from '../../../src/store/redis/target.ts';
import { describeKeyStoreContract, makeActivity, makeKey, makeSecret } from '../../store.contract.ts';
import { startRedisCluster, type TestTopology } from '../../support/redis-topology.ts';

describe('Redis key store on a Redis Cluster (3 masters)', () => {
  let cluster: TestTopology<ClusterTarget>;
  let stores = 0;
  const nextPrefix = () => `${cluster.keyPrefix}${++stores}:`;
  before(async function () {
    this.timeout(60_000);
    cluster = await startRedisCluster();
  });
  after(async () => {
    await cluster?.stop();
  });

  describeKeyStoreContract('redis cluster', async () => {
    const keyPrefix = nextPrefix();
    const store = await openRedisKeyStore(cluster.target, { keyPrefix });
    return {
      store,
      alerts: store.alerts,
      openPeer: async () => openRedisKeyStore(cluster.target, { keyPrefix }),
      cleanup: () => store.close(),
    };
  });

  describe('the key layout', () => {
    it('keeps a key’s Idempotency-Key records in the key’s slot group', () => {
      const layout = createKeyLayout('keygate:', true);
      for (const keyId of ['key_a', 'key_b', 'key_x7']) {
        const names = layout.forKey(keyId);
        assert.equal(hashSlotOf(names.idempotency(keyId, 'h')), hashSlotOf(names.key(keyId)));
      }
    });
    it('spreads the slot groups over every master, and keeps admin names in one slot', async () => {
      const layout = createKeyLayout('keygate:', true);
      const slots = new Set(layout.groups.map((names) => hashSlotOf(names.key('key_x'))));
      assert.equal(slots.size, CLUSTER_SLOT_GROUPS);
      const admin = layout.admin;
      assert.equal(hashSlotOf(admin.adminByEmail('a@example.com')), hashSlotOf(admin.adminIds));
      const client = new Cluster(cluster.target.clusterNodes, { lazyConnect: true });
      try {
        await client.connect();
        const owners = new Set([...slots].map((slot) => client.slots[slot]![0]));
        assert.equal(owners.size, 3);
      } finally {
        client.disconnect();
      }
    });

    it('keeps every name of a key in the slot of the key hash', () => {
      const layout = createKeyLayout('keygate:', true);
      const names = layout.forKey('key_abc');
      const slot = hashSlotOf(names.key('key_abc'));
      for (const name of [
        names.keySecrets('key_abc'),
        names.secret('sec_1'),
        names.lookups,
        names.activity,
        names.keysAll,
        names.sweepClosing,
        names.usage('key_abc', 'sec_1', 0),
        names.logs('key_abc'),
        names.rateLimit(60, 'key_abc'),
      ])
        assert.equal(hashSlotOf(name), slot, name);
    });
  });

  describe('with keys on every master', () => {
    let store: RedisKeyStore;
    let peer: RedisKeyStore;
    beforeEach(async () => {
      const keyPrefix = nextPrefix();
      store = await openRedisKeyStore(cluster.target, { keyPrefix });
      peer = await openRedisKeyStore(cluster.target, { keyPrefix });
    });
    afterEach(async () => {
      await Promise.all([store.close(), peer.close()]);
    });

    /** Script calls (EVALSHA) each master has run since `resetScriptCounts`. */
    const scriptCounts = async (client: Cluster) =>
      Promise.all(
        client.nodes('master').map(async (node) => {
          const stats = await node.info('commandstats');
          return Number(/cmdstat_evalsha:calls=(\d+)/.exec(stats)?.[1] ?? 0);
        }),
      );

    it('counts calls and reads versions of 60 keys in one turn, each exactly, one call per master', async () => {
      const keys = Array.from({ length: 60 }, () => makeKey());
      for (const key of keys)
        assert.equal(
          await store.commitChange({
            key,
            expectedVersion: null,
            secrets: [makeSecret(key.id)],
            activity: makeActivity(key),
          }),
          true,
        );
      const readings = await Promise.all(
        keys.flatMap((key) => [peer.countKeyCall(key.id, 5, 60), peer.countKeyCall(key.id, 5, 60)]),
      );
      assert.deepEqual(
        readings.map((reading) => reading.count),
        keys.flatMap(() => [1, 2]),
      );
      const admin = new Cluster(cluster.target.clusterNodes, { lazyConnect: true });
      try {
        await admin.connect();
        await Promise.all(admin.nodes('master').map((node) => node.config('RESETSTAT')));
        const versions = await Promise.all(keys.map((key) => peer.readKeyVersion(key.id)));
        assert.deepEqual(
          versions,
          keys.map(() => 1),
        );
        // 60 reads over keys on all three masters: one script call on each, not one per read.
        assert.deepEqual(await scriptCounts(admin), [1, 1, 1]);
      } finally {
        admin.disconnect();
      }
      assert.equal(await peer.readKeyVersion('key_unknown'), null);
    });

    it("announces another store's commit, whichever master holds the key", async () => {
      const before = peer.changeMarker();
      const key = makeKey();
      await store.commitChange({ key, expectedVersion: null, secrets: [], activity: makeActivity(key) });
      const deadline = Date.now() + 5000;
      while (peer.changeMarker() === before && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      assert.notEqual(peer.changeMarker(), before);
    });
  });
});
