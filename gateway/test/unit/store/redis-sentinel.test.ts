import assert from 'node:assert/strict';
import { openRedisKeyStore, type RedisKeyStore } from '../../../src/store/redis/redis-store.ts';
import type { SentinelTarget } from '../../../src/store/redis/target.ts';
import { describeKeyStoreContract, makeActivity, makeKey, makeSecret } from '../../store.contract.ts';
import { startRedisSentinel, type TestTopology } from '../../support/redis-topology.ts';

const FAST = { maxReconnectDelayMs: 200, connectTimeoutMs: 2000 };

describe('Redis key store behind Sentinel (master, replica, sentinel)', () => {
  let sentinel: TestTopology<SentinelTarget>;
  let stores = 0;
  const nextPrefix = () => `${sentinel.keyPrefix}${++stores}:`;
  before(async function () {
    this.timeout(60_000);
    sentinel = await startRedisSentinel();
  });
  after(async () => {
    await sentinel?.stop();
  });

  describeKeyStoreContract('redis sentinel', async () => {
    const keyPrefix = nextPrefix();
    const store = await openRedisKeyStore(sentinel.target, { keyPrefix });
    return {
      store,
      alerts: store.alerts,
      openPeer: async () => openRedisKeyStore(sentinel.target, { keyPrefix }),
      cleanup: () => store.close(),
    };
  });

  // Last: it kills the master, and the replica serves from then on.
  describe('when the master is killed', () => {
    let store: RedisKeyStore;
    let peer: RedisKeyStore;
    after(async () => {
      await Promise.all([store?.close(), peer?.close()]);
    });

    it('serves again from the promoted replica without a reopen, and flushes caches', async function () {
      this.timeout(60_000);
      const keyPrefix = nextPrefix();
      store = await openRedisKeyStore(sentinel.target, { keyPrefix, ...FAST });
      peer = await openRedisKeyStore(sentinel.target, { keyPrefix, ...FAST });
      const key = makeKey();
      const secret = makeSecret(key.id);
      await store.commitChange({
        key,
        expectedVersion: null,
        secrets: [secret],
        activity: makeActivity(key),
      });
      // The replica has the key before the master goes (WAIT: one replica acknowledged).
      await store.client.call('WAIT', '1', '2000');
      const marker = peer.changeMarker();
      await sentinel.nodes[0]!.kill();
      const deadline = Date.now() + 30_000;
      let version: number | null = null;
      while (Date.now() < deadline) {
        version = await peer.readKeyVersion(key.id).catch(() => null);
        if (version !== null) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal(version, 1, 'the promoted replica answers with the key');
      const revoked = { ...key, status: 'revoked' as const, revokedAt: key.createdAt, version: 2 };
      for (;;) {
        const done = await store
          .commitChange({ key: revoked, expectedVersion: 1, secrets: [], activity: makeActivity(revoked) })
          .catch(() => null);
        if (done !== null) {
          assert.equal(done, true);
          break;
        }
        if (Date.now() > deadline) assert.fail('no commit accepted after the failover');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal(await peer.readKeyVersion(key.id), 2);
      assert.equal((await peer.findByLookup(secret.lookup))?.key.status, 'revoked');
      assert.notEqual(peer.changeMarker(), marker, 'caches flushed after the failover');
    });
  });
});
