import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createUsageMeter, type UsageMeter } from '../../../src/budget/usage-meter.ts';
import { checksumOf, generateToken } from '../../../src/keys/token.ts';
import { openSqliteKeyStore, type SqliteKeyStore } from '../../../src/store/sqlite/sqlite-store.ts';
import { startTestGateway, type TestGateway } from '../../support/gateway.ts';
import { addSecret, seedKey, updateKey } from '../../support/keys.ts';

describe('key pipeline: every call of a known key counted by outcome', () => {
  let gw: TestGateway;
  let dir: string;
  let sqlite: SqliteKeyStore;
  let meter: UsageMeter;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'keygate-outcomes-'));
    sqlite = openSqliteKeyStore(join(dir, 'gateway.db'));
    meter = createUsageMeter({ store: sqlite.budgetStorage.usage, flushIntervalMs: 3_600_000 });
    gw = await startTestGateway({ meter, usage: sqlite.budgetStorage.usage });
  });
  afterEach(async () => {
    await gw.stop();
    await meter.close();
    await sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (token: string) =>
    request(gw.app).get('/v2/catalog/products').set('Authorization', `Bearer ${token}`);

  /** A key's calls of the test clock's minute, as `outcome calls` lines. */
  async function minuteOf(keyId: string): Promise<string[]> {
    await meter.flush();
    const minute = gw.clock.now - (gw.clock.now % 60_000);
    const buckets = await sqlite.budgetStorage.usage.readCallBuckets(
      keyId,
      'minute',
      minute,
      minute + 60_000,
    );
    return buckets.map((b) => `${b.environment} ${b.outcome} ${b.calls}`).sort();
  }

  it('counts admitted and rate-limited calls, and refusals before the principal for the real key', async () => {
    const limited = await seedKey(gw.store, gw.hasher, { perMinute: 2 });
    for (let i = 0; i < 3; i++) await get(limited.token);

    const { key, secret, token } = await seedKey(gw.store, gw.hasher);
    const forged = generateToken('live');
    const body = `kg_live_${secret.lookup}_${forged.token.slice(17, 39)}`;
    const wrong = body + checksumOf(body);
    assert.equal((await get(wrong)).status, 401);
    assert.equal((await get(wrong)).status, 401, 'the repeat is refused from the negative cache');
    assert.equal((await get(token)).status, 200);
    const closed = await addSecret(gw.store, gw.hasher, key, {
      closedAt: '2026-01-14T00:00:00.000Z',
      closedReason: 'manual',
    });
    assert.equal((await get(closed.token)).status, 401);

    const expired = await seedKey(gw.store, gw.hasher, { expiresAt: '2026-01-14', environment: 'test' });
    const revoked = await seedKey(gw.store, gw.hasher);
    assert.equal((await get(revoked.token)).status, 200);
    updateKey(gw.store, revoked.key.id, { status: 'revoked' });
    gw.events.publish(revoked.key.id);
    assert.equal((await get(revoked.token)).status, 401);
    assert.equal((await get(expired.token)).status, 401);
    assert.equal((await get(generateToken('live').token)).status, 401, 'a token of no key counts for none');

    assert.deepEqual(await minuteOf(limited.key.id), ['live RATE_LIMITED 1', 'live VALID 2']);
    assert.deepEqual(await minuteOf(key.id), ['live INVALID_SECRET 2', 'live REVOKED 1', 'live VALID 1']);
    assert.deepEqual(await minuteOf(revoked.key.id), ['live REVOKED 1', 'live VALID 1']);
    assert.deepEqual(await minuteOf(expired.key.id), ['test EXPIRED 1']);
  });

  describe('GET /v2/auth/keys/{id}/analytics', () => {
    const analytics = (token: string, keyId: string, query: string) =>
      request(gw.app)
        .get(`/v2/auth/keys/${keyId}/analytics?${query}`)
        .set('Authorization', `Bearer ${token}`);

    it('answers the key’s calls per bucket and outcome, empty buckets included', async () => {
      const admin = await seedKey(gw.store, gw.hasher, { scopes: ['auth:rw'] });
      const limited = await seedKey(gw.store, gw.hasher, { perMinute: 2 });
      for (let i = 0; i < 3; i++) await get(limited.token);
      gw.clock.now += 120_000;
      // The memory limiter's window runs on real time: still refused, counted in its own minute.
      await get(limited.token);
      await meter.flush();
      const from = new Date(gw.clock.now - 180_000).toISOString();
      const to = new Date(gw.clock.now + 1).toISOString();
      const res = await analytics(admin.token, limited.key.id, `granularity=minute&from=${from}&to=${to}`);
      assert.equal(res.status, 200);
      assert.equal(res.headers['cache-control'], 'no-store');
      const series = res.body.data.map(
        (p: { start: string; outcomes: Record<string, number> }) =>
          `${p.start} ${p.outcomes.VALID} ${p.outcomes.RATE_LIMITED} ${p.outcomes.EXPIRED}`,
      );
      assert.deepEqual(series, [
        '2026-01-15T11:59:00.000Z 0 0 0',
        '2026-01-15T12:00:00.000Z 2 1 0',
        '2026-01-15T12:01:00.000Z 0 0 0',
        '2026-01-15T12:02:00.000Z 0 1 0',
      ]);
      const hours = await analytics(admin.token, limited.key.id, 'granularity=hour&outcome=VALID');
      assert.deepEqual(hours.body.data.at(-1), {
        start: '2026-01-15T12:00:00.000Z',
        outcomes: { VALID: 2 },
        cost: 2,
      });
      assert.equal(hours.body.data.length, 24);
    });

    it('refuses a range backwards or too fine for its length with 422, and another environment’s key with 404', async () => {
      const admin = await seedKey(gw.store, gw.hasher, { scopes: ['auth:rw'] });
      const other = await seedKey(gw.store, gw.hasher, { environment: 'test' });
      const backwards = await analytics(
        admin.token,
        admin.key.id,
        'from=2026-01-15T12:00:00Z&to=2026-01-15T11:00:00Z',
      );
      assert.equal(backwards.status, 422);
      assert.equal(backwards.headers['content-type'], 'application/problem+json');
      assert.equal(backwards.body.errors[0].pointer, '/from');
      const long = await analytics(admin.token, admin.key.id, 'granularity=minute&from=2026-01-01T00:00:00Z');
      assert.equal(long.status, 422);
      assert.equal(long.body.errors[0].pointer, '/granularity');
      const bad = await analytics(admin.token, admin.key.id, 'granularity=week&outcome=MAYBE');
      assert.equal(bad.status, 422);
      assert.equal((await analytics(admin.token, other.key.id, '')).status, 404);
    });
  });
});
