import assert from 'node:assert/strict';
import request from 'supertest';
import { createMemoryRateLimiter, type KeyRateLimiter } from '../../../src/rate-limit/key-rate-limiter.ts';
import { startTestGateway, type TestGateway } from '../../support/gateway.ts';
import { seedKey, updateKey } from '../../support/keys.ts';
import { createMemoryStore, type MemoryStore } from '../../support/memory-store.ts';

/**
 * Groups store and limiter calls the way ioredis auto-pipelining does: every command issued before
 * the next `setImmediate` travels in one batch (one round trip), and none is answered before its
 * batch was sent, so a command issued after awaiting another lands in a later batch.
 */
function createRoundTrips() {
  const batches: string[][] = [];
  let open: { commands: string[]; sent: Promise<void> } | null = null;
  return {
    batches,
    /** Queues a command; resolves once its batch went out. */
    issue(command: string): Promise<void> {
      if (!open) {
        const commands: string[] = [];
        const sent = new Promise<void>((resolve) =>
          setImmediate(() => {
            batches.push(commands);
            open = null;
            resolve();
          }),
        );
        open = { commands, sent };
      }
      open.commands.push(command);
      return open.sent;
    },
  };
}

/** Routes the store's version reads and the limiter's calls through `trips`. */
function instrument(store: MemoryStore, trips: ReturnType<typeof createRoundTrips>): KeyRateLimiter {
  const readKeyVersion = store.readKeyVersion;
  if (readKeyVersion) {
    store.readKeyVersion = async (keyId) => {
      await trips.issue('readKeyVersion');
      return readKeyVersion(keyId);
    };
  }
  const limiter = createMemoryRateLimiter();
  return {
    async consume(keyId, perMinute) {
      await trips.issue('consume');
      return limiter.consume(keyId, perMinute);
    },
  };
}

describe('key pipeline: per-request version check', () => {
  let gw: TestGateway;
  let trips: ReturnType<typeof createRoundTrips>;
  afterEach(() => gw.stop());

  async function start(versioned: boolean) {
    trips = createRoundTrips();
    const store = createMemoryStore({ versioned });
    gw = await startTestGateway({ store, rateLimiter: instrument(store, trips) });
  }

  const get = (token: string, path = '/v2/catalog/products') =>
    request(gw.app).get(path).set('Authorization', `Bearer ${token}`);

  describe('with a shared store (readKeyVersion, as on Redis)', () => {
    beforeEach(() => start(true));

    it('reads the version once per request, in the same round trip as the rate-limit call', async () => {
      const { token } = await seedKey(gw.store, gw.hasher);
      for (let i = 0; i < 4; i++) assert.equal((await get(token)).status, 200);
      assert.equal(gw.store.calls.readKeyVersion, 4);
      const trip = trips.batches.filter((batch) => batch.includes('consume'));
      assert.equal(trip.length, 4);
      for (const batch of trip) assert.deepEqual(batch.toSorted(), ['consume', 'readKeyVersion']);
      assert.equal(gw.store.calls.getKey, 1, 'the key itself is read only when its version moves');
    });

    describe('with the key revoked on another instance (no event reached this one)', () => {
      it('responds 401 KEY_REVOKED on the very next request and never reaches upstream', async () => {
        const { key, token } = await seedKey(gw.store, gw.hasher);
        assert.equal((await get(token)).status, 200);
        updateKey(gw.store, key.id, { status: 'revoked', revokedAt: '2026-01-15T12:00:00.000Z' });
        const res = await get(token);
        assert.equal(res.status, 401);
        assert.equal(res.body.code, 'KEY_REVOKED');
        assert.equal(gw.live.seen.length, 1);
      });
    });

    describe('with the scopes narrowed on another instance', () => {
      it('responds 403 INSUFFICIENT_SCOPE for a call needing the removed scope, and serves the rest', async () => {
        const { key, token } = await seedKey(gw.store, gw.hasher, { scopes: ['article:r', 'order:rw'] });
        assert.equal((await get(token, '/v2/carts/c1')).status, 200);
        updateKey(gw.store, key.id, { scopes: ['article:r'] });
        const res = await get(token, '/v2/carts/c1');
        assert.equal(res.status, 403);
        assert.equal(res.body.requiredScope, 'order:r');
        assert.equal((await get(token)).status, 200);
        assert.equal(gw.live.seen.length, 2);
      });
    });

    describe('with the IP allowlist narrowed on another instance', () => {
      it('responds 403 IP_NOT_ALLOWED', async () => {
        const { key, token } = await seedKey(gw.store, gw.hasher);
        assert.equal((await get(token)).status, 200);
        updateKey(gw.store, key.id, { ipAllowlist: ['10.0.0.0/8'] });
        const res = await get(token);
        assert.equal(res.status, 403);
        assert.equal(res.body.code, 'IP_NOT_ALLOWED');
      });
    });

    describe('with the store unreachable', () => {
      it('serves a cached key within the staleness bound, then answers 503 STORE_UNAVAILABLE', async () => {
        const { token } = await seedKey(gw.store, gw.hasher);
        assert.equal((await get(token)).status, 200);
        gw.store.failing.add('readKeyVersion');
        gw.clock.now += 10_000;
        assert.equal((await get(token)).status, 200, 'the default bound is 10 s');
        gw.clock.now += 1;
        const res = await get(token);
        assert.equal(res.status, 503);
        assert.equal(res.body.code, 'STORE_UNAVAILABLE');
        assert.doesNotMatch(JSON.stringify(res.body), /simulated/);
        const metrics = (await request(gw.app).get('/metrics')).text;
        assert.match(metrics, /keygate_requests_total\{rule="GET \/v2\/catalog\/products".*status="503"\} 1/);
      });
    });
  });

  describe('with a store of its own (SQLite: no readKeyVersion)', () => {
    beforeEach(() => start(false));

    it('never reads a version; the rate-limit call travels alone', async () => {
      const { token } = await seedKey(gw.store, gw.hasher);
      for (let i = 0; i < 3; i++) assert.equal((await get(token)).status, 200);
      assert.equal(gw.store.readKeyVersion, undefined);
      assert.equal(gw.store.calls.readKeyVersion, undefined);
      assert.deepEqual(
        trips.batches.filter((batch) => batch.includes('consume')),
        [['consume'], ['consume'], ['consume']],
      );
    });

    it('sees a change made by another process through the change marker instead', async () => {
      const { key, token } = await seedKey(gw.store, gw.hasher);
      assert.equal((await get(token)).status, 200);
      updateKey(gw.store, key.id, { status: 'revoked' });
      gw.store.bumpMarker();
      assert.equal((await get(token)).status, 401);
    });
  });
});
