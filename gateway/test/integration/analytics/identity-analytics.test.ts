import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import request from 'supertest';
import { createIdentityAnalyticsRouter } from '../../../src/analytics/analytics-routes.ts';
import { createUsageMeter } from '../../../src/budget/usage-meter.ts';
import { createErrorHandler } from '../../../src/http/error-handler.ts';
import { createLogger } from '../../../src/http/logger.ts';
import { openSqliteKeyStore, type SqliteKeyStore } from '../../../src/store/sqlite/sqlite-store.ts';
import { makeIdentity } from '../../store-budget.contract.ts';

describe('GET /v2/auth/identities/{id}/analytics (createIdentityAnalyticsRouter)', () => {
  let dir: string;
  let store: SqliteKeyStore;
  const NOW = Date.parse('2026-11-28T10:30:00.000Z');
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'keygate-identity-analytics-'));
    store = openSqliteKeyStore(join(dir, 'gateway.db'));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The router behind a stand-in for the key pipeline: an `auth:rw` key of `environment`. */
  function appFor(environment: 'live' | 'test') {
    const app = express();
    app.use((_req, res, next) => {
      res.locals.route = { kind: 'management' };
      res.locals.principal = { key: { id: 'key_caller', environment } };
      next();
    });
    app.use(
      '/v2/auth/identities',
      createIdentityAnalyticsRouter({ store, usage: store.budgetStorage.usage, clock: () => NOW }),
    );
    app.use(createErrorHandler(createLogger('silent')));
    return app;
  }

  it('sums every key of the identity per hour and outcome, in the caller’s environment only', async () => {
    const identity = makeIdentity({ environment: 'live' });
    assert.equal(await store.createIdentity({ identity }), true);
    const meter = createUsageMeter({ store: store.budgetStorage.usage, flushIntervalMs: 3_600_000 });
    meter.count('key_a', identity.id, 'VALID', 1, NOW - 2 * 3_600_000, 'live');
    meter.count('key_b', identity.id, 'VALID', 2, NOW - 2 * 3_600_000, 'live');
    meter.count('key_b', identity.id, 'QUOTA_EXCEEDED', 0, NOW - 60_000, 'live');
    await meter.close();

    const res = await request(appFor('live')).get(
      `/v2/auth/identities/${identity.id}/analytics?granularity=hour`,
    );
    assert.equal(res.status, 200);
    assert.equal(res.headers['cache-control'], 'no-store');
    const busy = res.body.data
      .filter((p: { outcomes: Record<string, number> }) => Object.values(p.outcomes).some((n) => n > 0))
      .map((p: { start: string; outcomes: Record<string, number>; cost: number }) => [
        p.start,
        p.outcomes.VALID,
        p.outcomes.QUOTA_EXCEEDED,
        p.cost,
      ]);
    assert.deepEqual(busy, [
      ['2026-11-28T08:00:00.000Z', 2, 0, 3],
      ['2026-11-28T10:00:00.000Z', 0, 1, 0],
    ]);

    const other = await request(appFor('test')).get(`/v2/auth/identities/${identity.id}/analytics`);
    assert.equal(other.status, 404);
    assert.equal(other.body.code, 'IDENTITY_NOT_FOUND');
    const missing = await request(appFor('live')).get('/v2/auth/identities/idt_nobody/analytics');
    assert.equal(missing.status, 404);
  });
});
