import assert from 'node:assert/strict';
import {
  createKeyVerifier,
  type KeyVerifier,
  type KeyVerifierOptions,
} from '../../../src/auth/key-verifier.ts';
import { GatewayError } from '../../../src/errors.ts';
import { checksumOf, generateToken, parseToken, randomBase62 } from '../../../src/keys/token.ts';
import { createLocalKeyEvents } from '../../../src/model/events.ts';
import {
  type CountingHasher,
  createCountingHasher,
  createHeldHasher,
} from '../../support/counting-hasher.ts';
import { createTestClock } from '../../support/gateway.ts';
import { seedKey, updateKey } from '../../support/keys.ts';
import { createMemoryStore } from '../../support/memory-store.ts';

function setup(
  options: Partial<Pick<KeyVerifierOptions, 'negativeTtlMs' | 'maxConcurrentVerifications'>> = {},
  hasher: CountingHasher = createCountingHasher(),
) {
  const store = createMemoryStore();
  const events = createLocalKeyEvents();
  const clock = createTestClock();
  const verifier = createKeyVerifier({ store, hasher, events, clock, maxEntries: 100, ...options });
  const verify = (token: string) => verifier.verify(token, parseToken(token)!);
  return { store, hasher, events, clock, verifier, verify };
}

/** A well-formed token (valid checksum) for `lookup` with a random, wrong secret. */
function wrongTokenFor(lookup: string): string {
  const body = `kg_live_${lookup}_${randomBase62(22)}`;
  return body + checksumOf(body);
}

/** Lets the event loop turn until `condition` holds (no timers involved). */
async function until(condition: () => boolean): Promise<void> {
  for (let turn = 0; turn < 1_000 && !condition(); turn++) await new Promise((r) => setImmediate(r));
  assert.ok(condition(), 'condition never held');
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'OK';
  } catch (error) {
    assert.ok(error instanceof GatewayError, String(error));
    return error.code;
  }
}

describe('createKeyVerifier', () => {
  let verifier: KeyVerifier | undefined;
  afterEach(() => verifier?.close());

  it('shares one verification among concurrent first requests', async () => {
    const ctx = setup();
    verifier = ctx.verifier;
    const { token, key } = await seedKey(ctx.store, ctx.hasher);
    const results = await Promise.all(Array.from({ length: 20 }, () => ctx.verify(token)));
    assert.ok(results.every((result) => result.key.id === key.id));
    assert.equal(ctx.hasher.verifications, 1);
    assert.equal(ctx.store.calls.findByLookup, 1);
  });

  it('refuses an unknown lookup at once (no promise) when the store answers at once, as SQLite does', async () => {
    const memory = createMemoryStore();
    const hasher = createCountingHasher();
    const { token, key } = await seedKey(memory, hasher);
    let reads = 0;
    // The memory store's rows, answered without a promise.
    const store = {
      ...memory,
      findByLookup(lookup: string) {
        reads++;
        const secret = [...memory.secrets.values()].find((row) => row.lookup === lookup);
        const owner = secret && memory.keys.get(secret.keyId);
        return secret && owner ? { key: owner, secret } : null;
      },
    };
    verifier = createKeyVerifier({
      store,
      hasher,
      events: createLocalKeyEvents(),
      clock: createTestClock(),
      maxEntries: 100,
    });
    const unknown = wrongTokenFor(randomBase62(8));
    const refusedNow = (candidate: string) =>
      assert.throws(
        () => verifier!.verifyNow(candidate, parseToken(candidate)!),
        (error: unknown) => error instanceof GatewayError && error.code === 'UNKNOWN_KEY',
      );
    refusedNow(unknown);
    refusedNow(unknown);
    assert.equal(reads, 1, 'the second refusal comes from the negative cache');
    assert.equal((await verifier.verifyNow(token, parseToken(token)!)).key.id, key.id);
  });

  it('refuses a failed token by fingerprint until the negative entry expires', async () => {
    const ctx = setup({ negativeTtlMs: 5_000 });
    verifier = ctx.verifier;
    const { secret } = await seedKey(ctx.store, ctx.hasher);
    const wrong = generateToken('live').token.replace(/_[0-9A-Za-z]{8}_/, `_${secret.lookup}_`);
    const parsed = { environment: 'live' as const, lookup: secret.lookup, prefix: secret.prefix };
    assert.equal(await codeOf(ctx.verifier.verify(wrong, parsed)), 'UNKNOWN_KEY');
    assert.equal(await codeOf(ctx.verifier.verify(wrong, parsed)), 'UNKNOWN_KEY');
    assert.equal(ctx.hasher.verifications, 1);
    ctx.clock.now += 5_000;
    assert.equal(await codeOf(ctx.verifier.verify(wrong, parsed)), 'UNKNOWN_KEY');
    assert.equal(ctx.hasher.verifications, 2);
  });

  it('refuses a token whose environment differs from its key (never trusts the prefix alone)', async () => {
    const ctx = setup();
    verifier = ctx.verifier;
    const { key, token } = await seedKey(ctx.store, ctx.hasher);
    updateKey(ctx.store, key.id, { environment: 'test' });
    assert.equal(await codeOf(ctx.verify(token)), 'UNKNOWN_KEY');
  });

  it('does not cache a snapshot loaded while an event arrived', async () => {
    const ctx = setup();
    verifier = ctx.verifier;
    const { key, token } = await seedKey(ctx.store, ctx.hasher);
    const originalGetKey = ctx.store.getKey;
    let revokeDuringLoad = true;
    ctx.store.getKey = async (id) => {
      const loaded = await originalGetKey(id);
      if (revokeDuringLoad) {
        revokeDuringLoad = false;
        updateKey(ctx.store, key.id, { status: 'revoked' });
        ctx.events.publish(key.id);
      }
      return loaded;
    };
    assert.equal(await codeOf(ctx.verify(token)), 'OK', 'this request raced the revoke');
    assert.equal(await codeOf(ctx.verify(token)), 'KEY_REVOKED');
  });

  it('reads the change marker on every request and reloads snapshots only when it moves', async () => {
    const ctx = setup();
    verifier = ctx.verifier;
    const { token } = await seedKey(ctx.store, ctx.hasher);
    for (let i = 0; i < 3; i++) await ctx.verify(token);
    assert.equal(ctx.store.calls.changeMarker, 3);
    assert.equal(ctx.store.calls.getKey, 1);
    ctx.store.bumpMarker();
    await ctx.verify(token);
    assert.equal(ctx.store.calls.getKey, 2);
    assert.equal(ctx.hasher.verifications, 1);
  });

  describe('with many wrong secrets for one known lookup', () => {
    it('runs argon2 at most 5 times per 60 s, then refuses without it; a verified token keeps working', async () => {
      const ctx = setup();
      verifier = ctx.verifier;
      const { token, secret } = await seedKey(ctx.store, ctx.hasher);
      assert.equal(await codeOf(ctx.verify(token)), 'OK');
      for (let i = 0; i < 5; i++)
        assert.equal(await codeOf(ctx.verify(wrongTokenFor(secret.lookup))), 'UNKNOWN_KEY');
      assert.equal(ctx.hasher.verifications, 6);
      const lookups = ctx.store.calls.findByLookup;
      for (let i = 0; i < 20; i++)
        assert.equal(await codeOf(ctx.verify(wrongTokenFor(secret.lookup))), 'UNKNOWN_KEY');
      assert.equal(ctx.hasher.verifications, 6, 'no argon2 while throttled');
      assert.equal(ctx.store.calls.findByLookup, lookups, 'no store lookup while throttled');
      assert.equal(await codeOf(ctx.verify(token)), 'OK', 'the cached token is unaffected');
      ctx.clock.now += 59_999;
      assert.equal(await codeOf(ctx.verify(wrongTokenFor(secret.lookup))), 'UNKNOWN_KEY');
      assert.equal(ctx.hasher.verifications, 6);
      ctx.clock.now += 1;
      assert.equal(await codeOf(ctx.verify(wrongTokenFor(secret.lookup))), 'UNKNOWN_KEY');
      assert.equal(ctx.hasher.verifications, 7, 'the window passed: verified again');
    });

    it('makes a right token not yet verified wait for the window, and leaves other lookups alone', async () => {
      const ctx = setup();
      verifier = ctx.verifier;
      const { token, secret } = await seedKey(ctx.store, ctx.hasher);
      const other = await seedKey(ctx.store, ctx.hasher);
      for (let i = 0; i < 5; i++) await ctx.verify(wrongTokenFor(secret.lookup)).catch(() => {});
      assert.equal(await codeOf(ctx.verify(token)), 'UNKNOWN_KEY');
      assert.equal(await codeOf(ctx.verify(other.token)), 'OK');
      ctx.clock.now += 60_000;
      assert.equal(await codeOf(ctx.verify(token)), 'OK', 'not kept in the negative cache');
    });

    it('counts verifications still running, so a concurrent burst runs argon2 at most 5 times', async () => {
      const ctx = setup({ maxConcurrentVerifications: 100 });
      verifier = ctx.verifier;
      const { secret } = await seedKey(ctx.store, ctx.hasher);
      const codes = await Promise.all(
        Array.from({ length: 30 }, () => codeOf(ctx.verify(wrongTokenFor(secret.lookup)))),
      );
      assert.ok(codes.every((code) => code === 'UNKNOWN_KEY'));
      assert.equal(ctx.hasher.verifications, 5);
    });
  });

  describe('with more argon2 verifications at once than allowed', () => {
    it('refuses the excess with 503 VERIFICATION_BUSY (retry after 1 s), caching nothing', async () => {
      const hasher = createHeldHasher();
      const ctx = setup({ maxConcurrentVerifications: 2 }, hasher);
      verifier = ctx.verifier;
      const [a, b, c] = await Promise.all([1, 2, 3].map(() => seedKey(ctx.store, hasher)));
      const running = [ctx.verify(a!.token), ctx.verify(b!.token)];
      await until(() => hasher.waiting === 2);
      let busy: unknown;
      await ctx.verify(c!.token).catch((error: unknown) => {
        busy = error;
      });
      assert.ok(busy instanceof GatewayError);
      assert.equal(busy.code, 'VERIFICATION_BUSY');
      assert.equal(busy.status, 503);
      assert.equal(busy.extensions.retryAfter, 1);
      assert.equal(hasher.verifications, 2, 'the refused one never reached argon2');
      hasher.release();
      await Promise.all(running);
      const third = ctx.verify(c!.token);
      await until(() => hasher.waiting === 1);
      hasher.release();
      assert.equal((await third).key.id, c!.key.id);
    });
  });

  it('stops listening to events after close', async () => {
    const ctx = setup();
    const { key, token } = await seedKey(ctx.store, ctx.hasher);
    await ctx.verify(token);
    ctx.verifier.close();
    updateKey(ctx.store, key.id, { status: 'revoked' });
    ctx.events.publish(key.id);
    assert.equal(await codeOf(ctx.verify(token)), 'OK');
  });
});
