import assert from 'node:assert/strict';
import { createKeyVerifier, type KeyVerifier } from '../../../src/auth/key-verifier.ts';
import { GatewayError } from '../../../src/errors.ts';
import { createLocalKeyEvents } from '../../../src/keys/events.ts';
import { generateToken, parseToken } from '../../../src/keys/token.ts';
import { createCountingHasher } from '../../support/counting-hasher.ts';
import { createTestClock } from '../../support/gateway.ts';
import { seedKey, updateKey } from '../../support/keys.ts';
import { createMemoryStore } from '../../support/memory-store.ts';

function setup(options: { negativeTtlMs?: number } = {}) {
  const store = createMemoryStore();
  const hasher = createCountingHasher();
  const events = createLocalKeyEvents();
  const clock = createTestClock();
  const verifier = createKeyVerifier({ store, hasher, events, clock, maxEntries: 100, ...options });
  const verify = (token: string) => verifier.verify(token, parseToken(token)!);
  return { store, hasher, events, clock, verifier, verify };
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
