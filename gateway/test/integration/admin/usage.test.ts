import assert from 'node:assert/strict';
import type { UsageBucket } from '../../../src/model/model.ts';
import { LATENCY_BUCKETS_MS } from '../../../src/model/model.ts';
import { type AdminApp, type LoggedIn, logIn, read, send, startAdminApp } from './admin-app.ts';

const MINUTE = 60_000;

function histogram(slot: number, count: number): number[] {
  const slots = new Array<number>(LATENCY_BUCKETS_MS.length + 1).fill(0);
  slots[slot] = count;
  return slots;
}

describe('/admin/api/keys/:id usage, usage series and API log', () => {
  let a: AdminApp;
  let session: LoggedIn;
  afterEach(() => a.close());
  const get = (path: string) => read(a.app, path, session);

  let keyId: string;
  let secretId: string;
  beforeEach(async () => {
    a = await startAdminApp();
    session = await logIn(a.app);
    const created = await send(a.app, 'post', '/keys', session).send({
      name: 'agency',
      environment: 'live',
      scopes: ['article:r'],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const key = created.body as { id: string; rotation: { secrets: Array<{ id: string }> } };
    keyId = key.id;
    secretId = key.rotation.secrets[0]!.id;
    a.clock.now = Date.parse('2026-01-15T12:10:00.000Z'); // a whole minute, within the idle timeout
  });

  function bucket(minutesAgo: number, over: Partial<UsageBucket> = {}): UsageBucket {
    const minute = a.clock.now - minutesAgo * MINUTE;
    return {
      keyId,
      secretId,
      minute,
      calls: 10,
      errors4xx: 2,
      errors5xx: 1,
      latencyMsSum: 90,
      latencyHistogram: histogram(6, 10),
      lastCallAt: new Date(minute + 1000).toISOString(),
      ...over,
    };
  }

  it('GET /keys/:id/usage/series cuts recorded usage into steps with counts and percentiles', async () => {
    await a.store.recordUsage([
      bucket(30),
      bucket(30, { secretId: 'sec_old', latencyHistogram: histogram(10, 10), errors4xx: 0, errors5xx: 0 }),
      bucket(5, { calls: 4, errors4xx: 0, errors5xx: 4, latencyHistogram: histogram(0, 4) }),
    ]);
    const from = new Date(a.clock.now - 60 * MINUTE).toISOString();
    const to = new Date(a.clock.now).toISOString();
    const res = await get(`/keys/${keyId}/usage/series?from=${from}&to=${to}&stepMinutes=15`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.keyId, keyId);
    assert.equal(res.body.stepMinutes, 15);
    assert.deepEqual(res.body.points, [
      { at: from, calls: 0, errors4xx: 0, errors5xx: 0, latencyMs: null },
      {
        at: new Date(a.clock.now - 45 * MINUTE).toISOString(),
        calls: 0,
        errors4xx: 0,
        errors5xx: 0,
        latencyMs: null,
      },
      {
        at: new Date(a.clock.now - 30 * MINUTE).toISOString(),
        calls: 20,
        errors4xx: 2,
        errors5xx: 1,
        latencyMs: { p50: 10, p95: 48, p99: 49.6 },
      },
      {
        at: new Date(a.clock.now - 15 * MINUTE).toISOString(),
        calls: 4,
        errors4xx: 0,
        errors5xx: 4,
        latencyMs: { p50: 0.25, p95: 0.475, p99: 0.495 },
      },
    ]);
  });

  it('GET /keys/:id/usage/series defaults to the last 24 h in at most 288 steps', async () => {
    await a.store.recordUsage([bucket(1)]);
    const res = await get(`/keys/${keyId}/usage/series`);
    assert.equal(res.status, 200);
    assert.equal(res.body.stepMinutes, 5);
    assert.equal(res.body.points.length, 288);
    assert.equal(res.body.to, new Date(a.clock.now).toISOString());
    assert.equal(res.body.points.at(-1).calls, 10);
  });

  it('GET /keys/:id/usage/series refuses a range over 31 days or a bad step with 422', async () => {
    const from = new Date(a.clock.now - 32 * 24 * 60 * MINUTE).toISOString();
    assert.equal(
      (await get(`/keys/${keyId}/usage/series?from=${from}&to=${new Date(a.clock.now).toISOString()}`))
        .status,
      422,
    );
    assert.equal((await get(`/keys/${keyId}/usage/series?stepMinutes=0`)).status, 422);
    assert.equal((await get(`/keys/${keyId}/usage/series?stepMinutes=2000`)).status, 422);
    assert.equal((await get('/keys/key_nope/usage/series')).status, 404);
  });

  it('GET /keys/:id/usage totals recorded usage per secret', async () => {
    await a.store.recordUsage([bucket(30), bucket(5)]);
    const res = await get(`/keys/${keyId}/usage`);
    assert.equal(res.status, 200);
    assert.equal(res.body.totals.calls, 20);
    assert.equal(res.body.secrets[0].secretId, secretId);
  });

  it('GET /keys/:id/logs pages the API log', async () => {
    await a.store.appendLogs(
      [1, 2, 3].map((i) => ({
        id: `req_${i}`,
        keyId,
        secretId,
        at: new Date(a.clock.now - i * MINUTE).toISOString(),
        method: 'GET',
        path: '/v2/articles',
        status: 200,
        latencyMs: 4,
        clientIp: '198.51.100.7',
      })),
    );
    const res = await get(`/keys/${keyId}/logs?limit=2`);
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.items.map((line: { id: string }) => line.id),
      ['req_1', 'req_2'],
    );
    assert.ok(res.body.nextCursor);
  });
});
