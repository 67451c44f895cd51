import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import type { KeyRateLimiter } from '../../../src/rate-limit/key-rate-limiter.ts';
import { createRedisRateLimiter, type LimiterSource } from '../../../src/rate-limit/redis-rate-limiter.ts';
import { MAX_BATCH_OPERATIONS } from '../../../src/store/redis/call-batch.ts';
import { openRedisKeyStore, type RedisKeyStore } from '../../../src/store/redis/redis-store.ts';
import { eventually } from '../../store.contract.ts';
import { startRedis, type TestRedis } from '../../support/redis-server.ts';

const FAST = { maxReconnectDelayMs: 200, connectTimeoutMs: 2000 };

describe('createRedisRateLimiter', () => {
  let redis: TestRedis;
  let opened: RedisKeyStore[] = [];
  let handles = 0;
  before(async () => {
    redis = await startRedis();
  });
  after(async () => {
    await redis?.stop();
  });
  afterEach(async () => {
    await Promise.all(opened.map((store) => store.close()));
    opened = [];
  });

  /** One "gateway instance": its own store connection and limiter, on a prefix shared by the test. */
  async function instance(keyPrefix: string) {
    const store = await openRedisKeyStore(redis.url, { keyPrefix, ...FAST });
    opened.push(store);
    const sources: LimiterSource[] = [];
    const limiter = createRedisRateLimiter({
      store,
      onDecision: (source) => sources.push(source),
    });
    return { store, limiter, sources };
  }

  const prefix = () => `${redis.keyPrefix}${++handles}:`;
  const allowedOf = async (limiter: KeyRateLimiter, keyId: string, perMinute: number) =>
    (await limiter.consume(keyId, perMinute)).allowed;

  describe('with three instances on one Redis', () => {
    it('accepts exactly the quota in total, however the calls are spread', async () => {
      const keyPrefix = prefix();
      const instances = await Promise.all([instance(keyPrefix), instance(keyPrefix), instance(keyPrefix)]);
      const decisions = await Promise.all(
        Array.from({ length: 30 }, (_, i) => instances[i % 3]!.limiter.consume('key_shared', 10)),
      );
      assert.equal(decisions.filter((decision) => decision.allowed).length, 10);
      const refused = decisions.filter((decision) => !decision.allowed);
      assert.ok(refused.every((decision) => decision.resetSeconds >= 1 && decision.remaining === 0));
      assert.ok(instances.every(({ sources }) => sources.every((source) => source === 'redis')));
    });
  });

  /** Script calls (EVALSHA or EVAL) Redis receives while `run` runs that name a key under `keyPrefix`. */
  async function scriptCallsDuring(keyPrefix: string, run: () => Promise<unknown>): Promise<number> {
    const monitor = await new Redis(redis.url, { lazyConnect: true }).monitor();
    let calls = 0;
    monitor.on('monitor', (_time: string, args: string[]) => {
      const command = args[0]?.toLowerCase();
      if ((command === 'evalsha' || command === 'eval') && args.some((arg) => arg.startsWith(keyPrefix)))
        calls++;
    });
    try {
      await run();
      // MONITOR lines may trail the replies by a moment.
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      monitor.disconnect();
    }
    return calls;
  }

  describe('with the counts and version reads of one event-loop turn', () => {
    it('sends them all as one script call, each caller getting its own answer', async () => {
      const keyPrefix = prefix();
      const { store, limiter } = await instance(keyPrefix);
      let decisions: Awaited<ReturnType<KeyRateLimiter['consume']>>[] = [];
      let versions: (number | null)[] = [];
      const calls = await scriptCallsDuring(keyPrefix, async () => {
        [decisions, versions] = await Promise.all([
          Promise.all(Array.from({ length: 10 }, () => limiter.consume('key_turn', 4))),
          Promise.all(['key_turn', 'key_unknown'].map((id) => store.readKeyVersion(id))),
        ]);
      });
      assert.equal(calls, 1, 'one script call for 10 counts and 2 version reads');
      assert.deepEqual(
        decisions.map((d) => [d.allowed, d.remaining]),
        [[true, 3], [true, 2], [true, 1], [true, 0], ...Array(6).fill([false, 0])],
      );
      assert.ok(decisions.every((d) => d.limit === 4 && d.resetSeconds >= 1 && d.resetSeconds <= 60));
      assert.deepEqual(versions, [null, null], 'keys nobody created have no version');
    });

    it(`splits a turn of more than ${MAX_BATCH_OPERATIONS} operations into several calls`, async () => {
      const keyPrefix = prefix();
      const { limiter } = await instance(keyPrefix);
      const count = MAX_BATCH_OPERATIONS + 20;
      let allowed = 0;
      const calls = await scriptCallsDuring(keyPrefix, async () => {
        const decisions = await Promise.all(
          Array.from({ length: count }, () => limiter.consume('key_busy', count)),
        );
        allowed = decisions.filter((decision) => decision.allowed).length;
      });
      assert.equal(calls, 2);
      assert.equal(allowed, count, 'every call of the quota counted once');
    });
  });

  describe('with Redis refusing one operation of a turn (a counter of the wrong type)', () => {
    it('fails that count alone: its call falls back, the rest of the turn counts in Redis', async () => {
      const keyPrefix = prefix();
      const { store, limiter, sources } = await instance(keyPrefix);
      await store.client.hset(`${keyPrefix}ratelimit:5:key_broken`, 'not', 'a counter');
      const decisions = await Promise.all([
        limiter.consume('key_broken', 5),
        limiter.consume('key_fine', 5),
        limiter.consume('key_fine', 5),
      ]);
      assert.deepEqual(
        decisions.map((d) => [d.allowed, d.remaining]),
        [
          [true, 4],
          [true, 4],
          [true, 3],
        ],
      );
      assert.deepEqual(sources.toSorted(), ['fallback', 'redis', 'redis']);
      assert.equal(await store.client.get(`${keyPrefix}ratelimit:5:key_fine`), '2');
    });
  });

  describe('with Redis out of memory (maxmemory reached, noeviction): no script runs', () => {
    it('still answers version reads (as plain reads); the counts fall back to the per-instance limiter', async () => {
      const keyPrefix = prefix();
      const { store, limiter, sources } = await instance(keyPrefix);
      await store.client.hset(`${keyPrefix}key:key_v`, 'version', '7');
      const admin = new Redis(redis.url);
      await admin.config('SET', 'maxmemory-policy', 'noeviction');
      await admin.config('SET', 'maxmemory', '1');
      try {
        const [decision, version] = await Promise.all([
          limiter.consume('key_v', 5),
          store.readKeyVersion('key_v'),
        ]);
        assert.equal(version, 7);
        assert.equal(decision.allowed, true);
        assert.deepEqual(sources, ['fallback']);
      } finally {
        await admin.config('SET', 'maxmemory', '0');
        admin.disconnect();
      }
    });
  });

  describe('with Redis killed and restarted', () => {
    it('falls back to the per-instance limiter at once (never hangs), then returns to Redis', async () => {
      const { store, limiter, sources } = await instance(prefix());
      assert.equal(await allowedOf(limiter, 'key_b', 2), true);
      await redis.kill();
      try {
        const started = Date.now();
        const outcomes = [];
        for (let i = 0; i < 3; i++) outcomes.push(await allowedOf(limiter, 'key_b', 2));
        assert.ok(Date.now() - started < 500, `took ${Date.now() - started} ms`);
        assert.deepEqual(outcomes, [true, true, false], 'the fallback enforces the quota per instance');
        assert.deepEqual(sources.slice(1), ['fallback', 'fallback', 'fallback']);
      } finally {
        await redis.restart();
      }
      assert.ok(await eventually(async () => store.client.status === 'ready', 5000));
      assert.equal(await allowedOf(limiter, 'key_b', 2), true, 'a fresh Redis has a fresh window');
      assert.equal(sources.at(-1), 'redis');
    });
  });
});
