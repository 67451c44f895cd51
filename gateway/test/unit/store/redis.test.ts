import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import type { ApiKey, KeyChange, SecretRecord } from '../../../src/model/model.ts';
import { LATENCY_BUCKETS_MS } from '../../../src/model/model.ts';
import { USAGE_RETENTION_SECONDS } from '../../../src/store/redis/keys.ts';
import { openRedisKeyStore, type RedisKeyStore } from '../../../src/store/redis/redis-store.ts';
import type { KeyStore } from '../../../src/store/store.ts';
import {
  describeKeyStoreContract,
  eventually,
  makeActivity,
  makeKey,
  makeSecret,
} from '../../store.contract.ts';
import { startRedis, type TestRedis } from '../../support/redis-server.ts';

const FAST = { maxReconnectDelayMs: 300, connectTimeoutMs: 2000 };

function create(key: ApiKey, secrets: SecretRecord[] = [makeSecret(key.id)]): KeyChange {
  return { key, expectedVersion: null, secrets, activity: makeActivity(key) };
}

function rename(key: ApiKey, name: string, secrets: SecretRecord[] = []): KeyChange {
  const next = { ...key, name, version: key.version + 1 };
  return { key: next, expectedVersion: key.version, secrets, activity: makeActivity(next) };
}

async function seed(store: KeyStore): Promise<{ key: ApiKey; secret: SecretRecord; change: KeyChange }> {
  const key = makeKey();
  const secret = makeSecret(key.id);
  const change = create(key, [secret]);
  assert.equal(await store.commitChange(change), true);
  return { key, secret, change };
}

describe('Redis key store', () => {
  let redis: TestRedis;
  let stores = 0;
  const nextPrefix = () => `${redis.keyPrefix}${++stores}:`;
  before(async () => {
    redis = await startRedis();
  });
  after(async () => {
    await redis?.stop();
  });

  describeKeyStoreContract('redis', async () => {
    const keyPrefix = nextPrefix();
    const store = await openRedisKeyStore(redis.url, { keyPrefix });
    return {
      store,
      alerts: store.alerts,
      openPeer: async () => openRedisKeyStore(redis.url, { keyPrefix }),
      cleanup: () => store.close(),
    };
  });

  describe('openRedisKeyStore', () => {
    let store: RedisKeyStore;
    let keyPrefix: string;
    const peers: KeyStore[] = [];
    const openPeer = async () => {
      const peer = await openRedisKeyStore(redis.url, { keyPrefix });
      peers.push(peer);
      return peer;
    };
    beforeEach(async () => {
      keyPrefix = nextPrefix();
      store = await openRedisKeyStore(redis.url, { keyPrefix });
    });
    afterEach(async () => {
      await Promise.all([store.close(), ...peers.splice(0).map((peer) => peer.close())]);
    });

    describe('with nothing listening at the URL', () => {
      it('rejects instead of hanging', async () => {
        const started = Date.now();
        await assert.rejects(
          openRedisKeyStore('redis://127.0.0.1:1', { connectTimeoutMs: 1000 }),
          /cannot connect to redis/,
        );
        assert.ok(Date.now() - started < 1500);
      });
    });

    describe('with two peers racing the same expected version', () => {
      it('lets exactly one commit win and writes nothing of the loser', async () => {
        const [a, b] = [await openPeer(), await openPeer()];
        for (let round = 0; round < 20; round++) {
          const { key, change: created } = await seed(store);
          const changes = [rename(key, 'a', [makeSecret(key.id)]), rename(key, 'b', [makeSecret(key.id)])];
          const results = await Promise.all([a.commitChange(changes[0]!), b.commitChange(changes[1]!)]);
          assert.equal(results.filter(Boolean).length, 1, `round ${round}: ${results}`);
          const winner = changes[results.indexOf(true)]!;
          const loser = changes[results.indexOf(false)]!;
          assert.equal((await store.getKey(key.id))?.name, winner.key.name);
          assert.equal(await store.findByLookup(loser.secrets[0]!.lookup), null);
          assert.equal((await store.listSecrets(key.id)).length, 2);
          const activity = await store.listActivity({ keyId: key.id });
          assert.deepEqual(
            activity.items.map((entry) => entry.id),
            [winner.activity.id, created.activity.id],
          );
        }
      });
    });

    describe('with a new secret whose lookup another secret holds', () => {
      it('rejects the change and writes nothing of it', async () => {
        const { secret } = await seed(store);
        const key = makeKey();
        const clash = makeSecret(key.id, { lookup: secret.lookup });
        await assert.rejects(store.commitChange(create(key, [clash])), /lookup already taken/);
        assert.equal(await store.getKey(key.id), null);
        assert.deepEqual(await store.listKeys().then((keys) => keys.map((k) => k.id)), [secret.keyId]);
        assert.deepEqual((await store.listActivity({ keyId: key.id })).items, []);
        assert.equal((await store.findByLookup(secret.lookup))?.secret.id, secret.id);
      });
    });

    describe('readKeyVersion', () => {
      it('reads null for an unknown key and each committed version after it', async () => {
        assert.equal(await store.readKeyVersion('key_none'), null);
        let { key } = await seed(store);
        assert.equal(await store.readKeyVersion(key.id), 1);
        for (const name of ['x', 'y']) {
          const change = rename(key, name);
          assert.equal(await store.commitChange(change), true);
          key = change.key;
          assert.equal(await store.readKeyVersion(key.id), key.version);
        }
        assert.equal(key.version, 3);
      });

      it('is not bumped by recordUsage', async () => {
        const { key, secret } = await seed(store);
        await store.recordUsage([
          {
            keyId: key.id,
            secretId: secret.id,
            minute: Date.parse('2025-03-01T10:00:00.000Z'),
            calls: 2,
            errors4xx: 0,
            errors5xx: 0,
            latencyMsSum: 3,
            latencyHistogram: new Array<number>(LATENCY_BUCKETS_MS.length + 1).fill(0),
            lastCallAt: '2025-03-01T10:00:01.000Z',
          },
        ]);
        assert.equal((await store.listSecrets(key.id))[0]?.callCount, 2);
        assert.equal(await store.readKeyVersion(key.id), 1);
      });
    });

    describe('with usage recorded', () => {
      it('gives the bucket and its minute index a 90-day TTL', async () => {
        const { key, secret } = await seed(store);
        const minute = Date.parse('2025-03-01T10:00:00.000Z');
        const histogram = [1];
        await store.recordUsage([
          {
            keyId: key.id,
            secretId: secret.id,
            minute,
            calls: 1,
            errors4xx: 0,
            errors5xx: 0,
            latencyMsSum: 0.25,
            latencyHistogram: histogram,
            lastCallAt: '2025-03-01T10:00:01.000Z',
          },
        ]);
        const ttls = await Promise.all([
          store.client.ttl(`${keyPrefix}usage:${key.id}:${secret.id}:${minute}`),
          store.client.ttl(`${keyPrefix}usage:index:${key.id}`),
        ]);
        for (const ttl of ttls)
          assert.ok(ttl > USAGE_RETENTION_SECONDS - 60 && ttl <= USAGE_RETENTION_SECONDS);
        assert.equal(USAGE_RETENTION_SECONDS, 90 * 86_400);
      });
    });

    describe('change marker', () => {
      it('stays put for its own commits and moves once for a peer commit', async () => {
        const peer = await openPeer();
        const before = store.changeMarker();
        assert.equal(typeof before, 'number');
        await seed(store);
        await seed(peer);
        assert.ok(await eventually(async () => store.changeMarker() !== before));
        assert.equal(store.changeMarker(), (before as number) + 1);
      });
    });

    describe('with the commit script', () => {
      it('publishes the invalidation on <prefix>invalidate', async () => {
        const listener = new Redis(redis.url, { lazyConnect: true });
        try {
          await listener.connect();
          const messages: string[] = [];
          listener.on('message', (_channel: string, message: string) => messages.push(message));
          await listener.subscribe(`${keyPrefix}invalidate`);
          const { key } = await seed(store);
          assert.ok(await eventually(async () => messages.length > 0));
          assert.match(messages[0]!, new RegExp(`^commit \\S+ ${key.id}$`));
        } finally {
          listener.disconnect();
        }
      });
    });

    describe('with another key prefix on the same Redis', () => {
      it('sees none of the other store’s data', async () => {
        const other = await openRedisKeyStore(redis.url, { keyPrefix: nextPrefix() });
        peers.push(other);
        const { key, secret } = await seed(store);
        assert.equal(await other.getKey(key.id), null);
        assert.equal(await other.findByLookup(secret.lookup), null);
        assert.deepEqual(await other.listKeys(), []);
        assert.equal((await other.listActivity({})).items.length, 0);
      });
    });
  });
});

describe('Redis key store with Redis killed and restarted', () => {
  let redis: TestRedis;
  let store: RedisKeyStore;
  before(async () => {
    redis = await startRedis();
  });
  after(async () => {
    await redis?.stop();
  });
  beforeEach(async () => {
    store = await openRedisKeyStore(redis.url, { keyPrefix: redis.keyPrefix, ...FAST });
  });
  afterEach(async () => {
    await store.close();
  });

  /** Every method that needs Redis, with arguments that would touch it. */
  function everyRoundTrip(s: RedisKeyStore): Record<string, () => Promise<unknown>> {
    const key = makeKey();
    const secret = makeSecret(key.id);
    return {
      commitChange: () => s.commitChange(create(key, [secret])),
      getKey: () => s.getKey(key.id),
      listKeys: () => s.listKeys({ environment: 'live' }),
      listSecrets: () => s.listSecrets(key.id),
      findByLookup: async () => s.findByLookup(secret.lookup),
      listActivity: () => s.listActivity({}),
      recordUsage: () =>
        s.recordUsage([
          {
            keyId: key.id,
            secretId: secret.id,
            minute: 0,
            calls: 1,
            errors4xx: 0,
            errors5xx: 0,
            latencyMsSum: 1,
            latencyHistogram: [1],
            lastCallAt: '2025-03-01T10:00:00.000Z',
          },
        ]),
      queryUsage: () => s.queryUsage({ keyId: key.id, from: 0, to: 1e13 }),
      pruneUsage: () => s.pruneUsage(1),
      appendLogs: () =>
        s.appendLogs([
          {
            id: 'req_1',
            keyId: key.id,
            secretId: secret.id,
            at: '2025-03-01T10:00:00.000Z',
            method: 'GET',
            path: '/',
            status: 200,
            latencyMs: 1,
            clientIp: '127.0.0.1',
          },
        ]),
      queryLogs: () => s.queryLogs({ keyId: key.id }),
      pruneLogs: () => s.pruneLogs('2025-03-01T10:00:00.000Z'),
      createAdmin: () =>
        s.createAdmin({ id: 'adm_x', email: 'x@example.com', passwordHash: 'h', createdAt: key.createdAt }),
      findAdminByEmail: () => s.findAdminByEmail('x@example.com'),
      readKeyVersion: () => s.readKeyVersion(key.id),
    };
  }

  describe('while Redis is down', () => {
    it('rejects every method within about a second and answers ping false', async () => {
      await redis.kill();
      try {
        const outcomes = await Promise.all(
          Object.entries(everyRoundTrip(store)).map(async ([name, call]) => {
            const started = Date.now();
            const error = await call().then(
              () => null,
              (reason: unknown) => reason,
            );
            return { name, rejected: error instanceof Error, ms: Date.now() - started };
          }),
        );
        for (const outcome of outcomes) {
          assert.ok(outcome.rejected, `${outcome.name} did not reject`);
          assert.ok(outcome.ms < 1500, `${outcome.name} took ${outcome.ms} ms`);
        }
        assert.equal(await store.ping(), false);
        assert.equal(typeof store.changeMarker(), 'number');
      } finally {
        await redis.restart();
      }
    });
  });

  describe('after Redis came back', () => {
    it('works again without reopening and moves the change marker', async () => {
      const before = store.changeMarker();
      await redis.kill();
      await assert.rejects(store.getKey('key_x'));
      await redis.restart();
      assert.ok(await eventually(() => store.ping(), 5000), 'ping did not recover');
      const { key, secret } = await seed(store);
      assert.deepEqual((await store.findByLookup(secret.lookup))?.key, key);
      assert.ok(await eventually(async () => store.changeMarker() !== before, 5000));
      for (const [name, call] of Object.entries(everyRoundTrip(store))) {
        await assert.doesNotReject(call(), `${name} still fails`);
      }
    });
  });
});
