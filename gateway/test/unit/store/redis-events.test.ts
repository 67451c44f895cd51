import assert from 'node:assert/strict';
import { createRedisKeyEvents, type RedisKeyEvents } from '../../../src/store/redis/redis-events.ts';
import { openRedisKeyStore } from '../../../src/store/redis/redis-store.ts';
import { eventually, makeActivity, makeKey, makeSecret } from '../../store.contract.ts';
import { startRedis, type TestRedis } from '../../support/redis-server.ts';

const FAST = { maxReconnectDelayMs: 300, connectTimeoutMs: 2000 };

describe('createRedisKeyEvents', () => {
  let redis: TestRedis;
  let prefixes = 0;
  let keyPrefix: string;
  const opened: RedisKeyEvents[] = [];
  const open = async (prefix = keyPrefix) => {
    const events = await createRedisKeyEvents(redis.url, { keyPrefix: prefix, ...FAST });
    opened.push(events);
    return events;
  };
  /** Records every key id a listener of `events` receives. */
  const record = (events: RedisKeyEvents) => {
    const seen: string[] = [];
    events.subscribe((keyId) => seen.push(keyId));
    return seen;
  };
  before(async () => {
    redis = await startRedis();
  });
  after(async () => {
    await redis?.stop();
  });
  beforeEach(() => {
    keyPrefix = `${redis.keyPrefix}${++prefixes}:`;
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((events) => events.close()));
  });

  describe('with a publish on one instance', () => {
    it('calls its own listeners synchronously, before publish returns', async () => {
      const a = await open();
      const seen = record(a);
      a.publish('key_1');
      assert.deepEqual(seen, ['key_1']);
    });

    it('reaches the listeners of another instance, and not its own a second time', async () => {
      const [a, b] = [await open(), await open()];
      const [seenA, seenB] = [record(a), record(b)];
      a.publish('key_a');
      assert.ok(await eventually(async () => seenB.includes('key_a')));
      b.publish('key_b');
      assert.ok(await eventually(async () => seenA.includes('key_b')));
      assert.deepEqual(seenA, ['key_a', 'key_b']);
      assert.deepEqual(seenB, ['key_a', 'key_b']);
    });

    it('no longer calls a listener that unsubscribed', async () => {
      const [a, b] = [await open(), await open()];
      const dropped: string[] = [];
      const unsubscribe = b.subscribe((keyId) => dropped.push(keyId));
      const seenB = record(b);
      unsubscribe();
      a.publish('key_1');
      assert.ok(await eventually(async () => seenB.includes('key_1')));
      assert.deepEqual(dropped, []);
    });
  });

  describe('with another key prefix', () => {
    it('does not hear the other prefix’s events', async () => {
      const [a, other, b] = [await open(), await open(`${keyPrefix}other:`), await open()];
      const seenOther = record(other);
      const seenB = record(b);
      a.publish('key_elsewhere');
      other.publish('key_here');
      assert.ok(await eventually(async () => seenB.includes('key_elsewhere')));
      assert.deepEqual(seenOther, ['key_here']);
    });
  });

  describe('with a commit through the Redis key store', () => {
    it('delivers the key id without any publish call (the commit script publishes)', async () => {
      const events = await open();
      const seen = record(events);
      const store = await openRedisKeyStore(redis.url, { keyPrefix });
      try {
        const key = makeKey();
        const change = {
          key,
          expectedVersion: null,
          secrets: [makeSecret(key.id)],
          activity: makeActivity(key),
        };
        assert.equal(await store.commitChange(change), true);
        assert.ok(await eventually(async () => seen.includes(key.id)));
      } finally {
        await store.close();
      }
    });
  });

  describe('with a publisher connection given', () => {
    it('publishes through it and leaves it open on close', async () => {
      const store = await openRedisKeyStore(redis.url, { keyPrefix });
      try {
        const events = await createRedisKeyEvents(redis.url, { keyPrefix, publisher: store.client });
        const seen = record(await open());
        events.publish('key_shared');
        assert.ok(await eventually(async () => seen.includes('key_shared')));
        await events.close();
        assert.equal(await store.ping(), true);
      } finally {
        await store.close();
      }
    });
  });

  describe('after redis-server was killed and restarted', () => {
    it('calls onReset once subscribed again, and delivers events again', async () => {
      const [a, b] = [await open(), await open()];
      let resets = 0;
      b.onReset(() => resets++);
      const seenB = record(b);
      await redis.kill();
      const seenA = record(a);
      a.publish('key_while_down');
      assert.deepEqual(seenA, ['key_while_down']);
      await redis.restart();
      assert.ok(await eventually(async () => resets === 1, 5000), 'onReset was not called');
      assert.equal(seenB.length, 0);
      assert.ok(
        await eventually(async () => {
          a.publish('key_after');
          return seenB.includes('key_after');
        }, 5000),
      );
    });
  });
});
