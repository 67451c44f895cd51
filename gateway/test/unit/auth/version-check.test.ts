import assert from 'node:assert/strict';
import {
  createKeyVerifier,
  type KeyVerifier,
  type VersionCheckResult,
} from '../../../src/auth/key-verifier.ts';
import { GatewayError } from '../../../src/errors.ts';
import { parseToken } from '../../../src/keys/token.ts';
import { createLocalKeyEvents } from '../../../src/model/events.ts';
import { createCountingHasher } from '../../support/counting-hasher.ts';
import { createTestClock } from '../../support/gateway.ts';
import { seedKey, updateKey, updateSecret } from '../../support/keys.ts';
import { createMemoryStore } from '../../support/memory-store.ts';

const STALENESS_MS = 3000;

/** A verifier on a versioned (Redis-like) memory store, a settable clock and no key events at all. */
function setup() {
  const store = createMemoryStore({ versioned: true });
  const hasher = createCountingHasher();
  const clock = createTestClock();
  const checks: VersionCheckResult[] = [];
  const verifier = createKeyVerifier({
    store,
    hasher,
    events: createLocalKeyEvents(),
    clock,
    maxEntries: 100,
    stalenessMs: STALENESS_MS,
    hooks: { versionCheck: (result) => checks.push(result) },
  });
  /** What one request does: verify from the cache, then confirm against the store's version. */
  const request = async (token: string) => verifier.confirm(await verifier.verify(token, parseToken(token)!));
  return { store, hasher, clock, checks, verifier, request };
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

describe('KeyVerifier.confirm (per-request version check of a shared store)', () => {
  let verifier: KeyVerifier | undefined;
  afterEach(() => verifier?.close());

  describe('with the key unchanged since it was cached', () => {
    it('answers the cached state, reading the version once per request and the key only once', async () => {
      const ctx = setup();
      verifier = ctx.verifier;
      const { token } = await seedKey(ctx.store, ctx.hasher);
      for (let i = 0; i < 3; i++) assert.equal(await codeOf(ctx.request(token)), 'OK');
      assert.equal(ctx.store.calls.readKeyVersion, 3);
      assert.equal(ctx.store.calls.getKey, 1);
      assert.deepEqual(ctx.checks, ['current', 'current', 'current']);
    });
  });

  describe('with the key changed behind the cache (no event reached this instance)', () => {
    it('re-reads the key and refuses it once revoked', async () => {
      const ctx = setup();
      verifier = ctx.verifier;
      const { key, token } = await seedKey(ctx.store, ctx.hasher);
      await ctx.request(token);
      updateKey(ctx.store, key.id, { status: 'revoked' });
      const cached = await ctx.verifier.verify(token, parseToken(token)!);
      assert.equal(cached.key.status, 'active', 'the cache alone still holds the old state');
      assert.equal(await codeOf(ctx.verifier.confirm(cached)), 'KEY_REVOKED');
      assert.equal(ctx.store.calls.getKey, 2);
      assert.equal(ctx.checks.at(-1), 'changed');
      assert.equal(await codeOf(ctx.request(token)), 'KEY_REVOKED', 'and the fresh state is cached');
    });

    it('refuses a secret closed on another instance', async () => {
      const ctx = setup();
      verifier = ctx.verifier;
      const { key, secret, token } = await seedKey(ctx.store, ctx.hasher);
      await ctx.request(token);
      updateSecret(ctx.store, secret.id, { closedAt: '2026-01-15T11:00:00.000Z', closedReason: 'manual' });
      updateKey(ctx.store, key.id, {});
      assert.equal(await codeOf(ctx.request(token)), 'SECRET_CLOSED');
    });

    it('answers the fresh state (new scopes, new allowlist) for the caller to check again', async () => {
      const ctx = setup();
      verifier = ctx.verifier;
      const { key, token } = await seedKey(ctx.store, ctx.hasher, { scopes: ['article:r', 'order:rw'] });
      await ctx.request(token);
      updateKey(ctx.store, key.id, { scopes: ['article:r'], ipAllowlist: ['10.0.0.0/8'] });
      const fresh = await ctx.request(token);
      assert.deepEqual(fresh.key.scopes, ['article:r']);
      assert.equal(fresh.allowlist.size, 1);
    });

    it('shares one reload among concurrent requests that saw the same new version', async () => {
      const ctx = setup();
      verifier = ctx.verifier;
      const { key, token } = await seedKey(ctx.store, ctx.hasher);
      await ctx.request(token);
      updateKey(ctx.store, key.id, { name: 'renamed' });
      const states = await Promise.all(Array.from({ length: 20 }, () => ctx.request(token)));
      assert.ok(states.every((state) => state.key.name === 'renamed'));
      assert.equal(ctx.store.calls.getKey, 2);
    });
  });

  describe('with the store unreachable', () => {
    it('serves a key confirmed within the staleness bound, then fails closed with 503', async () => {
      const ctx = setup();
      verifier = ctx.verifier;
      const { token } = await seedKey(ctx.store, ctx.hasher);
      await ctx.request(token);
      ctx.clock.now += 1000;
      await ctx.request(token);
      ctx.store.failing.add('readKeyVersion');
      ctx.clock.now += STALENESS_MS;
      assert.equal(await codeOf(ctx.request(token)), 'OK', 'exactly at the bound: still served');
      ctx.clock.now += 1;
      assert.equal(await codeOf(ctx.request(token)), 'STORE_UNAVAILABLE');
      assert.deepEqual(ctx.checks.slice(-2), ['stale', 'unavailable']);
      ctx.store.failing.delete('readKeyVersion');
      assert.equal(await codeOf(ctx.request(token)), 'OK', 'recovers once the store answers');
      assert.equal(ctx.checks.at(-1), 'current');
    });

    it('measures the bound from the last successful read, not from the first verification', async () => {
      const ctx = setup();
      verifier = ctx.verifier;
      const { token } = await seedKey(ctx.store, ctx.hasher);
      await ctx.request(token);
      for (let i = 0; i < 5; i++) {
        ctx.clock.now += 2000;
        await ctx.request(token);
      }
      ctx.store.failing.add('readKeyVersion');
      ctx.clock.now += STALENESS_MS - 1;
      assert.equal(await codeOf(ctx.request(token)), 'OK');
    });

    it('never serves a key it has no state for: 503, not a guess', async () => {
      const ctx = setup();
      verifier = ctx.verifier;
      const { token } = await seedKey(ctx.store, ctx.hasher);
      for (const method of ['findByLookup', 'getKey', 'listSecrets', 'readKeyVersion']) {
        ctx.store.failing.add(method);
      }
      assert.equal(await codeOf(ctx.request(token)), 'STORE_UNAVAILABLE');
    });

    it('keeps refusing a key it saw revoked', async () => {
      const ctx = setup();
      verifier = ctx.verifier;
      const { key, token } = await seedKey(ctx.store, ctx.hasher);
      await ctx.request(token);
      updateKey(ctx.store, key.id, { status: 'revoked' });
      assert.equal(await codeOf(ctx.request(token)), 'KEY_REVOKED');
      ctx.store.failing.add('readKeyVersion');
      assert.equal(await codeOf(ctx.request(token)), 'KEY_REVOKED');
    });

    it('has nothing stale to serve after dropAll (e.g. the subscriber reconnected)', async () => {
      const ctx = setup();
      verifier = ctx.verifier;
      const { token } = await seedKey(ctx.store, ctx.hasher);
      await ctx.request(token);
      ctx.verifier.dropAll();
      ctx.store.failing.add('getKey');
      assert.equal(await codeOf(ctx.request(token)), 'STORE_UNAVAILABLE');
      ctx.store.failing.delete('getKey');
      assert.equal(await codeOf(ctx.request(token)), 'OK');
      assert.equal(ctx.hasher.verifications, 1, 'token verifications survive dropAll');
    });
  });

  describe('with a store that has no readKeyVersion (SQLite)', () => {
    it('resolves the state unchanged and reads nothing', async () => {
      const store = createMemoryStore();
      const hasher = createCountingHasher();
      verifier = createKeyVerifier({
        store,
        hasher,
        events: createLocalKeyEvents(),
        clock: createTestClock(),
        maxEntries: 10,
      });
      const { token } = await seedKey(store, hasher);
      const state = await verifier.verify(token, parseToken(token)!);
      const before = store.totalCalls();
      assert.equal(await verifier.confirm(state), state);
      assert.equal(store.totalCalls(), before);
    });
  });

  describe('with the store unreachable and shared events whose subscriber may have dropped', () => {
    function setupShared() {
      const store = createMemoryStore({ versioned: true });
      const hasher = createCountingHasher();
      const clock = createTestClock();
      const local = createLocalKeyEvents();
      const resets = new Set<() => void>();
      const losses = new Set<() => void>();
      const register = (set: Set<() => void>) => (listener: () => void) => {
        set.add(listener);
        return () => set.delete(listener);
      };
      const events = { ...local, onReset: register(resets), onLost: register(losses) };
      const shared = createKeyVerifier({
        store,
        hasher,
        events,
        clock,
        maxEntries: 100,
        stalenessMs: STALENESS_MS,
      });
      const request = async (token: string) => shared.confirm(await shared.verify(token, parseToken(token)!));
      const fire = (set: Set<() => void>) => {
        for (const listener of set) listener();
      };
      return {
        store,
        hasher,
        clock,
        verifier: shared,
        request,
        lose: () => fire(losses),
        reset: () => fire(resets),
      };
    }

    it('serves stale answers when the subscriber stayed subscribed from the confirmation until the outage', async () => {
      const ctx = setupShared();
      verifier = ctx.verifier;
      const { token } = await seedKey(ctx.store, ctx.hasher);
      await ctx.request(token);
      ctx.clock.now += 500;
      ctx.lose();
      ctx.store.failing.add('readKeyVersion');
      ctx.clock.now += 500;
      assert.equal(await codeOf(ctx.request(token)), 'OK');
    });

    it('fails closed when the subscriber was already down at the last confirmation (an invalidation may be lost)', async () => {
      const ctx = setupShared();
      verifier = ctx.verifier;
      const { token } = await seedKey(ctx.store, ctx.hasher);
      ctx.clock.now += 100;
      ctx.lose();
      ctx.clock.now += 100;
      await ctx.request(token);
      ctx.store.failing.add('readKeyVersion');
      ctx.clock.now += 100;
      assert.equal(await codeOf(ctx.request(token)), 'STORE_UNAVAILABLE');
    });

    it('fails closed when the subscriber came back after the last confirmation', async () => {
      const ctx = setupShared();
      verifier = ctx.verifier;
      const { token } = await seedKey(ctx.store, ctx.hasher);
      await ctx.request(token);
      ctx.clock.now += 100;
      ctx.lose();
      ctx.clock.now += 100;
      ctx.reset();
      ctx.clock.now += 100;
      ctx.store.failing.add('readKeyVersion');
      assert.equal(await codeOf(ctx.request(token)), 'STORE_UNAVAILABLE');
      ctx.store.failing.delete('readKeyVersion');
      assert.equal(await codeOf(ctx.request(token)), 'OK', 'a fresh confirmation counts again');
      ctx.store.failing.add('readKeyVersion');
      ctx.clock.now += 100;
      assert.equal(await codeOf(ctx.request(token)), 'OK');
    });
  });
});
