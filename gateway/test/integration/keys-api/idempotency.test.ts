import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateIdentityKeyPair } from '@keygate/identity';
import { loadConfig } from '../../../src/config.ts';
import { createLogger } from '../../../src/http/logger.ts';
import { type OpenedGateway, openGateway } from '../../../src/open-gateway.ts';
import { TEST_TAG_KEY } from '../../support/redis-gateway.ts';
import { startRedis } from '../../support/redis-server.ts';
import { startRedisCluster, startRedisSentinel } from '../../support/redis-topology.ts';
import { startEchoUpstream, type TestUpstream } from '../../support/upstream.ts';
import { describeKeysApiIdempotency, type IdempotencySetup } from './idempotency.suite.ts';

/** A clock that follows real time plus an offset the test moves forward (Redis expiry runs on real time). */
function createShiftedClock() {
  const clock = () => Date.now() + clock.offsetMs;
  clock.offsetMs = 0;
  return clock;
}

/** `count` gateways opened as main.ts opens them, from one config: they share its store. */
async function openInstances(
  env: Record<string, string>,
  count: number,
  cleanup: () => Promise<void>,
): Promise<IdempotencySetup> {
  const upstream: TestUpstream = await startEchoUpstream('live');
  const { privateJwk } = await generateIdentityKeyPair();
  const config = loadConfig({
    KEYGATE_UPSTREAM_LIVE: upstream.url,
    KEYGATE_UPSTREAM_TEST: upstream.url,
    KEYGATE_IDENTITY_PRIVATE_JWK: JSON.stringify(privateJwk),
    // Instances on a shared store need one tag key (#36).
    KEYGATE_SECRET_TAG_KEY: TEST_TAG_KEY,
    ...env,
  });
  const clock = createShiftedClock();
  const logger = createLogger('silent');
  const opened: OpenedGateway[] = [];
  for (let i = 0; i < count; i++) opened.push(await openGateway(config, { logger, clock }));
  const [a] = opened as [OpenedGateway];
  return {
    instances: opened.map((instance) => instance.gateway.app),
    keyService: a.keyService,
    store: a.backend.store,
    advance: (ms) => {
      clock.offsetMs += ms;
    },
    async close() {
      await Promise.all(opened.map((instance) => instance.close()));
      await upstream.close();
      await cleanup();
    },
  };
}

describeKeysApiIdempotency('SQLite, one instance', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-idem-'));
  return openInstances({ KEYGATE_DATA_DIR: dir }, 1, async () =>
    rmSync(dir, { recursive: true, force: true }),
  );
});

describeKeysApiIdempotency('Redis, two instances', async () => {
  const redis = await startRedis();
  return openInstances(
    {
      KEYGATE_DATA_DIR: '/tmp/keygate-test-unused',
      REDIS_URL: redis.url,
      KEYGATE_REDIS_PREFIX: redis.keyPrefix,
    },
    2,
    () => redis.stop(),
  );
});

describe('on a Redis Cluster (3 masters)', () => {
  let cluster: Awaited<ReturnType<typeof startRedisCluster>>;
  let runs = 0;
  before(async function () {
    this.timeout(60_000);
    cluster = await startRedisCluster();
  });
  after(async () => {
    await cluster?.stop();
  });
  describeKeysApiIdempotency('Redis Cluster, two instances', async () =>
    openInstances(
      {
        KEYGATE_DATA_DIR: '/tmp/keygate-test-unused',
        KEYGATE_REDIS_CLUSTER_NODES: cluster.target.clusterNodes.map((n) => `${n.host}:${n.port}`).join(','),
        KEYGATE_REDIS_PREFIX: `${cluster.keyPrefix}${++runs}:`,
      },
      2,
      async () => {},
    ),
  );
});

describe('on Redis with a Sentinel', () => {
  let sentinel: Awaited<ReturnType<typeof startRedisSentinel>>;
  let runs = 0;
  before(async function () {
    this.timeout(60_000);
    sentinel = await startRedisSentinel();
  });
  after(async () => {
    await sentinel?.stop();
  });
  describeKeysApiIdempotency('Redis Sentinel, two instances', async () =>
    openInstances(
      {
        KEYGATE_DATA_DIR: '/tmp/keygate-test-unused',
        KEYGATE_REDIS_SENTINELS: sentinel.target.sentinels.map((n) => `${n.host}:${n.port}`).join(','),
        KEYGATE_REDIS_SENTINEL_NAME: sentinel.target.name,
        KEYGATE_REDIS_PREFIX: `${sentinel.keyPrefix}${++runs}:`,
      },
      2,
      async () => {},
    ),
  );
});
