import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { GatewayError } from '../../../src/errors.ts';
import { createLogger } from '../../../src/http/logger.ts';
import {
  type ApiKey,
  type KeyChange,
  LATENCY_BUCKETS_MS,
  type SecretRecord,
  type UsageBucket,
} from '../../../src/model/model.ts';
import { isRedisAnswering } from '../../../src/store/redis/connection.ts';
import { openRedisKeyStore, type RedisKeyStore } from '../../../src/store/redis/redis-store.ts';
import { withUnavailableErrors } from '../../../src/store/unavailable-errors.ts';
import { eventually, makeActivity, makeKey, makeSecret } from '../../store.contract.ts';
import { startRedis, type TestRedis } from '../../support/redis-server.ts';

function create(key: ApiKey, secrets: SecretRecord[]): KeyChange {
  return { key, expectedVersion: null, secrets, activity: makeActivity(key) };
}

function captureLogger(): { lines: string[]; logger: ReturnType<typeof createLogger> } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { lines, logger: createLogger('info', sink) };
}

function usageBuckets(key: ApiKey, secretId: string, count: number): UsageBucket[] {
  const start = Date.parse('2026-01-15T00:00:00.000Z');
  return Array.from({ length: count }, (_, n) => ({
    keyId: key.id,
    secretId,
    minute: start + n * 60_000,
    calls: 1,
    errors4xx: 0,
    errors5xx: 0,
    latencyMsSum: 3,
    latencyHistogram: new Array<number>(LATENCY_BUCKETS_MS.length + 1).fill(0),
    lastCallAt: new Date(start + n * 60_000).toISOString(),
  }));
}

describe('Redis store failures', () => {
  let redis: TestRedis;
  let store: RedisKeyStore;
  let prefixes = 0;
  before(async () => {
    redis = await startRedis();
  });
  after(async () => {
    await redis?.stop();
  });
  beforeEach(async () => {
    store = await openRedisKeyStore(redis.url, { keyPrefix: `${redis.keyPrefix}${++prefixes}:` });
  });
  afterEach(async () => {
    await store.close();
  });

  describe('with a failing command carrying secret material', () => {
    const secretHash = '$argon2id$v=19$m=19456,t=2,p=1$c2VjcmV0LWhhc2gtbWF0ZXJpYWw';
    async function failCommit(
      target: Pick<RedisKeyStore, 'commitChange'>,
    ): Promise<{ error: unknown; lookup: string }> {
      const key = makeKey();
      const taken = makeSecret(key.id);
      assert.equal(await store.commitChange(create(key, [taken])), true);
      const other = makeKey();
      const clash = makeSecret(other.id, { lookup: taken.lookup, hash: secretHash });
      try {
        await target.commitChange(create(other, [clash]));
      } catch (error) {
        return { error, lookup: taken.lookup };
      }
      assert.fail('the clashing commit should have failed');
    }

    it('keeps the command arguments off the error the wrapper rethrows', async () => {
      const { error } = await failCommit(withUnavailableErrors(store));
      assert.ok(error instanceof GatewayError);
      assert.equal(error.code, 'STORE_UNAVAILABLE');
      assert.equal((error.cause as { command?: unknown }).command, undefined);
      assert.doesNotMatch(JSON.stringify(error.cause), /argon2id/);
    });

    it('logs a raw driver error without its command (no hash, no lookup)', async () => {
      const { error, lookup } = await failCommit(store);
      assert.ok((error as { command?: { args?: unknown[] } }).command?.args, 'ioredis attaches the command');
      const { lines, logger } = captureLogger();
      logger.error({ err: error, requestId: 'req_1' }, 'request failed');
      logger.error(
        { err: Object.assign(new GatewayError('INTERNAL', 'x'), { cause: error }), failed: error },
        'nested',
      );
      assert.equal(lines.length, 2);
      for (const line of lines) {
        assert.doesNotMatch(line, /argon2id/);
        assert.ok(!line.includes(lookup), 'the lookup is not logged');
      }
      assert.match(lines[0]!, /lookup already taken/, 'the message itself is kept');
    });
  });

  describe('with a usage flush retried under the same id', () => {
    it('applies each chunk once (first chunk landed, then the whole flush sent twice)', async () => {
      const key = makeKey();
      const secret = makeSecret(key.id);
      assert.equal(await store.commitChange(create(key, [secret])), true);
      const buckets = usageBuckets(key, secret.id, 300);
      await store.recordUsage(buckets.slice(0, 200), 'usf_test');
      await store.recordUsage(buckets, 'usf_test');
      await store.recordUsage(buckets, 'usf_test');
      const stored = await store.queryUsage({ keyId: key.id, from: 0, to: Date.parse('2027-01-01') });
      assert.equal(
        stored.reduce((sum, bucket) => sum + bucket.calls, 0),
        300,
      );
      const secrets = await store.listSecrets(key.id);
      assert.equal(secrets[0]?.callCount, 300);
    });

    it('still sums calls made without an id', async () => {
      const key = makeKey();
      const secret = makeSecret(key.id);
      assert.equal(await store.commitChange(create(key, [secret])), true);
      const [bucket] = usageBuckets(key, secret.id, 1);
      await store.recordUsage([bucket!]);
      await store.recordUsage([bucket!]);
      const stored = await store.queryUsage({ keyId: key.id, from: 0, to: Date.parse('2027-01-01') });
      assert.equal(stored[0]?.calls, 2);
    });
  });

  describe('with Redis frozen during a commit', () => {
    let frail: RedisKeyStore;
    beforeEach(async () => {
      frail = await openRedisKeyStore(redis.url, {
        keyPrefix: `${redis.keyPrefix}${++prefixes}:`,
        commandTimeoutMs: 200,
        settleTimeoutMs: 600,
      });
    });
    afterEach(async () => {
      redis.signal('SIGCONT');
      await frail.close();
    });

    it('answers true when the read-back shows the timed-out commit applied', async () => {
      const key = makeKey();
      redis.signal('SIGSTOP');
      const committing = frail.commitChange(create(key, [makeSecret(key.id)]));
      await new Promise((resolve) => setTimeout(resolve, 350));
      redis.signal('SIGCONT');
      assert.equal(await committing, true);
      assert.equal((await frail.getKey(key.id))?.id, key.id);
    });

    it('answers 503 OUTCOME_UNKNOWN when Redis stays silent, telling the caller to re-read the key', async () => {
      const key = makeKey();
      redis.signal('SIGSTOP');
      await assert.rejects(frail.commitChange(create(key, [makeSecret(key.id)])), (error: unknown) => {
        assert.ok(error instanceof GatewayError);
        assert.equal(error.code, 'OUTCOME_UNKNOWN');
        assert.equal(error.status, 503);
        assert.match(error.message, /read the key again/i);
        return true;
      });
      redis.signal('SIGCONT');
      const landed = async () => (await frail.getKey(key.id).catch(() => null))?.id === key.id;
      assert.ok(await eventually(landed, 3000), 'the change did land once Redis thawed');
    });
  });

  describe('with Redis frozen (SIGSTOP) for many calls', () => {
    let frozen: RedisKeyStore;
    beforeEach(async () => {
      frozen = await openRedisKeyStore(redis.url, {
        keyPrefix: `${redis.keyPrefix}${++prefixes}:`,
        commandTimeoutMs: 300,
        circuitTimeouts: 2,
        circuitProbeMs: 50,
      });
    });
    afterEach(async () => {
      redis.signal('SIGCONT');
      await frozen.close();
    });

    it('fails fast after a few timeouts, reports Redis down, and recovers once a probe answers', async () => {
      redis.signal('SIGSTOP');
      await Promise.all([
        assert.rejects(frozen.getKey('key_a'), /timed out/),
        assert.rejects(frozen.getKey('key_b'), /timed out/),
      ]);
      assert.equal(isRedisAnswering(frozen.client), false);
      const started = performance.now();
      await assert.rejects(frozen.getKey('key_c'), /circuit open/);
      assert.equal(await frozen.ping(), false);
      assert.ok(performance.now() - started < 100, 'no command timeout waited while the circuit is open');
      redis.signal('SIGCONT');
      assert.ok(
        await eventually(async () => isRedisAnswering(frozen.client), 3000),
        'the probe closed the circuit',
      );
      assert.equal(await frozen.getKey('key_a'), null);
      assert.equal(await frozen.ping(), true);
    });
  });
});
