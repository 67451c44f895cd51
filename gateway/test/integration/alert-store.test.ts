import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRedisKeyStore, type RedisKeyStore } from '../../src/store/redis/redis-store.ts';
import type { ClusterTarget } from '../../src/store/redis/target.ts';
import { openSqliteKeyStore, type SqliteKeyStore } from '../../src/store/sqlite/sqlite-store.ts';
import { describeAlertStoreContract } from '../alert-store.contract.ts';
import { startRedis, type TestRedis } from '../support/redis-server.ts';
import { startRedisCluster, type TestTopology } from '../support/redis-topology.ts';

describeAlertStoreContract('sqlite', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'keygate-alerts-'));
  const file = join(dir, 'keygate.db');
  const opened: SqliteKeyStore[] = [openSqliteKeyStore(file)];
  return {
    store: opened[0]!.alertStorage,
    async peer() {
      const store = openSqliteKeyStore(file);
      opened.push(store);
      return store.alertStorage;
    },
    async cleanup() {
      for (const store of opened) await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});

describe('alert store in Redis', () => {
  let redis: TestRedis;
  let cluster: TestTopology<ClusterTarget>;
  let prefixes = 0;
  before(async () => {
    redis = await startRedis();
    cluster = await startRedisCluster();
  });
  after(async () => {
    await redis?.stop();
    await cluster?.stop();
  });
  const openWith =
    (target: () => Parameters<typeof openRedisKeyStore>[0], base: () => string) => async () => {
      const keyPrefix = `${base()}alerts${++prefixes}:`;
      const opened: RedisKeyStore[] = [await openRedisKeyStore(target(), { keyPrefix })];
      return {
        store: opened[0]!.alerts,
        async peer() {
          const store = await openRedisKeyStore(target(), { keyPrefix });
          opened.push(store);
          return store.alerts;
        },
        async cleanup() {
          for (const store of opened) await store.close();
        },
      };
    };
  describeAlertStoreContract(
    'redis',
    openWith(
      () => redis.url,
      () => redis.keyPrefix,
    ),
  );
  describeAlertStoreContract(
    'redis cluster',
    openWith(
      () => cluster.target,
      () => cluster.keyPrefix,
    ),
  );
});
