import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createKeyVerifier, type KeyVerifier } from '../../../src/auth/key-verifier.ts';
import { GatewayError } from '../../../src/errors.ts';
import { newKeyChange } from '../../../src/keys/create-key.ts';
import { createSecretTagger } from '../../../src/keys/secret-tag.ts';
import { generateToken, parseToken } from '../../../src/keys/token.ts';
import type { GatewayBackend } from '../../../src/store/backend.ts';
import { openRedisGatewayBackend } from '../../../src/store/redis/open-redis-backend.ts';
import { openRedisKeyStore, type RedisKeyStore } from '../../../src/store/redis/redis-store.ts';
import { createTaggingHasher } from '../../support/counting-hasher.ts';
import { startRedis, type TestRedis } from '../../support/redis-server.ts';

/**
 * A key written by another process right after this instance refused its lookup must work on the
 * instance's very next check. On Redis the commit's invalidation reaches the instance on its
 * subscriber connection, which may be read after the next request's socket in the same turn of the
 * event loop: the check must not answer from the negative cache before that message is read.
 */

/** Blocks this process for `ms`, as a busy event loop would (sockets fill, nothing is read). */
function holdEventLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {}
}

describe('the negative cache of an instance on Redis, with a key written elsewhere', function () {
  this.timeout(60_000);
  let redis: TestRedis;
  let backend: GatewayBackend;
  let writer: RedisKeyStore;
  let verifier: KeyVerifier;
  const hasher = createTaggingHasher(createSecretTagger(randomBytes(32)));

  before(async () => {
    redis = await startRedis();
    backend = await openRedisGatewayBackend(redis.url, {
      redisUrl: redis.url,
      redisPrefix: redis.keyPrefix,
      databaseFile: '',
    });
    writer = await openRedisKeyStore(redis.url, { keyPrefix: redis.keyPrefix });
    verifier = createKeyVerifier({
      store: backend.store,
      events: backend.events,
      hasher,
      clock: Date.now,
      maxEntries: 1000,
    });
  });
  after(async () => {
    verifier?.close();
    await writer?.close();
    await backend?.close();
    await redis?.stop();
  });

  /** How many times Redis ran each command so far (INFO commandstats). */
  async function commandCalls(commands: string[]): Promise<Record<string, number>> {
    const info = await writer.client.info('commandstats');
    return Object.fromEntries(
      commands.map((command) => [
        command,
        Number(new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(info)?.[1] ?? 0),
      ]),
    );
  }

  async function codeOf(token: string): Promise<string> {
    try {
      await verifier.verifyNow(token, parseToken(token)!);
      return 'OK';
    } catch (error) {
      assert.ok(error instanceof GatewayError, String(error));
      return error.code;
    }
  }

  it('accepts the key on the check right after the write, every time', async () => {
    const answers: string[] = [];
    for (let round = 0; round < 40; round++) {
      const token = generateToken('live');
      assert.equal(await codeOf(token.token), 'UNKNOWN_KEY');
      assert.equal(await codeOf(token.token), 'UNKNOWN_KEY');
      const change = newKeyChange({
        name: `late ${round}`,
        grant: {
          environment: 'live',
          scopes: ['article:r'],
          expiresAt: null,
          ipAllowlist: [],
          rateLimit: { perMinute: 1000 },
        },
        token,
        hash: await hasher.hash(token.token),
        tag: hasher.tag!(token.token),
        at: new Date().toISOString(),
        actor: { type: 'system', id: 'keygate' },
        sourceIp: null,
      });
      assert.equal(await writer.commitChange(change), true);
      // The writer's answer came back: by the time a caller's next request could arrive (another
      // process, a network hop), the invalidation has reached this process's subscriber socket too,
      // unread. Hold the event loop that long, so it is there and unread when the check runs.
      holdEventLoop(2);
      answers.push(`${round} ${await codeOf(token.token)}`);
    }
    assert.deepEqual(
      answers.filter((answer) => !answer.endsWith(' OK')),
      [],
    );
  });

  it('refuses a burst of remembered garbage with one PING for the whole turn, and no lookup', async () => {
    const garbage = Array.from({ length: 200 }, () => generateToken('live').token);
    for (const token of garbage) assert.equal(await codeOf(token), 'UNKNOWN_KEY');
    const before = await commandCalls(['ping', 'hget', 'hmget', 'evalsha']);
    const codes = await Promise.all(garbage.map(codeOf));
    const after = await commandCalls(['ping', 'hget', 'hmget', 'evalsha']);
    assert.deepEqual(new Set(codes), new Set(['UNKNOWN_KEY']));
    assert.deepEqual(after, { ...before, ping: Number(before.ping) + 1 });
  });
});
