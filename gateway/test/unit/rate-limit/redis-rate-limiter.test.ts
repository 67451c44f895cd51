import assert from 'node:assert/strict';
import type { KeyRateLimiter } from '../../../src/rate-limit/key-rate-limiter.ts';
import { createRedisRateLimiter, type LimiterSource } from '../../../src/rate-limit/redis-rate-limiter.ts';
import { openRedisKeyStore, type RedisKeyStore } from '../../../src/store/redis.ts';
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
      client: store.client,
      keyPrefix,
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

  describe('with the key version read issued in the same tick', () => {
    it('sends both commands in one auto-pipelined round trip', async () => {
      const { store, limiter } = await instance(prefix());
      await limiter.consume('key_a', 5);
      await store.readKeyVersion('key_a');
      const both = Promise.all([limiter.consume('key_a', 5), store.readKeyVersion('key_a')]);
      assert.equal(store.client.autoPipelineQueueSize, 2, 'both commands wait in one pipeline');
      await both;
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
