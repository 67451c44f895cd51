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
    gw = await startTestGateway({ meter });
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
});
