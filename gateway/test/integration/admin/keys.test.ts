import assert from 'node:assert/strict';
import request from 'supertest';
import { type AdminApp, type LoggedIn, logIn, read, send, startAdminApp } from './admin-app.ts';

const CLIENT_IP = '203.0.113.50';

describe('/admin/api/keys as administrator', () => {
  let a: AdminApp;
  let session: LoggedIn;
  beforeEach(async () => {
    a = await startAdminApp({ env: { KEYGATE_TRUSTED_PROXIES: '127.0.0.1' } });
    session = await logIn(a.app);
  });
  afterEach(() => a.close());

  // Each change a second after the last, so activity (newest first) has one order.
  const tick = () => {
    a.clock.now += 1000;
  };
  const post = (path: string) => {
    tick();
    return send(a.app, 'post', path, session).set('X-Forwarded-For', CLIENT_IP);
  };
  const del = (path: string) => {
    tick();
    return send(a.app, 'delete', path, session).set('X-Forwarded-For', CLIENT_IP);
  };
  const get = (path: string) => read(a.app, path, session);

  async function createKey(body: Record<string, unknown> = {}) {
    const res = await post('/keys').send({
      name: 'agency',
      environment: 'live',
      scopes: ['article:r'],
      ...body,
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body as {
      id: string;
      secret: string;
      prefix: string;
      rotation: { secrets: Array<{ id: string }> };
    };
  }

  describe('POST /keys with auth:rw and every field', () => {
    it('responds 201 with the secret once, a Location, and an activity entry by the admin from the client IP', async () => {
      const res = await post('/keys').send({
        name: 'agency',
        environment: 'test',
        scopes: ['auth:rw', 'article:r'],
        expiresAt: '2026-12-31',
        ipAllowlist: ['198.51.100.0/24'],
        rateLimit: { perMinute: 120 },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.headers.location, `/admin/api/keys/${res.body.id}`);
      assert.deepEqual(Object.keys(res.body).slice(0, 3), ['id', 'prefix', 'secret']);
      assert.ok(res.body.secret.startsWith(`${res.body.prefix}_`));
      assert.deepEqual(res.body.scopes, ['article:r', 'auth:rw']);
      assert.equal(res.body.environment, 'test');
      assert.equal(res.body.expiresAt, '2026-12-31');
      assert.deepEqual(res.body.ipAllowlist, ['198.51.100.0/24']);
      assert.equal(res.body.rateLimit.perMinute, 120);
      const activity = await get(`/keys/${res.body.id}/activity`);
      assert.equal(activity.body.items.length, 1);
      assert.equal(activity.body.items[0].action, 'key.created');
      assert.deepEqual(activity.body.items[0].actor, { type: 'admin', id: a.adminId });
      assert.equal(activity.body.items[0].sourceIp, CLIENT_IP);
    });

    it('never shows the secret again: not in the key, the list, the activity or the logs', async () => {
      const created = await createKey({ scopes: ['auth:rw'] });
      const secretPart = created.secret.slice(created.prefix.length + 1);
      const bodies = [
        await get(`/keys/${created.id}`),
        await get('/keys'),
        await get(`/keys/${created.id}/activity`),
        await get('/activity'),
        await get(`/keys/${created.id}/logs`),
      ].map((res) => res.text);
      for (const text of [...bodies, a.logs.join('\n')]) {
        assert.ok(!text.includes(secretPart), 'the secret was shown again');
      }
    });

    it('responds 422 for invalid fields and creates nothing', async () => {
      const res = await post('/keys').send({ name: '', environment: 'prod', scopes: ['nope'] });
      assert.equal(res.status, 422);
      assert.equal(res.body.code, 'VALIDATION_FAILED');
      assert.ok(res.body.errors.length >= 3);
      assert.deepEqual((await get('/keys')).body.items, []);
    });
  });

  describe('GET /keys', () => {
    it('lists both environments and filters by environment and status', async () => {
      const live = await createKey({ environment: 'live' });
      const test = await createKey({ environment: 'test' });
      await del(`/keys/${test.id}`);
      const ids = async (query: string) =>
        (await get(`/keys${query}`)).body.items.map((key: { id: string }) => key.id).sort();
      assert.deepEqual(await ids(''), [live.id, test.id].sort());
      assert.deepEqual(await ids('?environment=live'), [live.id]);
      assert.deepEqual(await ids('?status=revoked'), [test.id]);
      assert.deepEqual(await ids('?environment=live&status=revoked'), []);
    });

    it('responds 422 for an unknown environment', async () => {
      const res = await get('/keys?environment=prod');
      assert.equal(res.status, 422);
      assert.equal(res.body.errors[0].pointer, '/environment');
    });
  });

  describe('changing a key', () => {
    it('grants auth:rw by a scope change, rotates, closes the old secret and revokes, each logged', async () => {
      const key = await createKey();
      const scoped = await post(`/keys/${key.id}/scopes`).send({ scopes: ['auth:rw'] });
      assert.equal(scoped.status, 200);
      assert.deepEqual(scoped.body.scopes, ['auth:rw']);

      const rotated = await post(`/keys/${key.id}/rotate`).send({ overlapDays: 2 });
      assert.equal(rotated.status, 200);
      assert.ok(rotated.body.secret.startsWith(`${rotated.body.prefix}_`));
      assert.notEqual(rotated.body.secret, key.secret);
      assert.equal(rotated.body.rotation.inProgress, true);
      assert.equal(rotated.body.rotation.secrets.length, 2);

      const closed = await post(`/keys/${key.id}/close-old-secret`).send({});
      assert.equal(closed.status, 200);
      assert.equal(closed.body.rotation.inProgress, false);
      assert.equal(closed.body.rotation.secrets[1].closedReason, 'manual');

      const revoked = await del(`/keys/${key.id}`);
      assert.equal(revoked.status, 200);
      assert.equal(revoked.body.status, 'revoked');

      const { items } = (await get(`/keys/${key.id}/activity`)).body;
      assert.deepEqual(
        items.map((entry: { action: string }) => entry.action),
        ['key.revoked', 'key.secret_closed', 'key.rotated', 'key.scopes_changed', 'key.created'],
      );
      for (const entry of items) {
        assert.deepEqual(entry.actor, { type: 'admin', id: a.adminId });
        assert.equal(entry.sourceIp, CLIENT_IP);
      }
    });

    it('answers 404 KEY_NOT_FOUND for an unknown key', async () => {
      const res = await post('/keys/key_nope/scopes').send({ scopes: ['order:r'] });
      assert.equal(res.status, 404);
      assert.equal(res.body.code, 'KEY_NOT_FOUND');
    });

    it('answers 400 MALFORMED_BODY for a body that is not JSON, changing nothing', async () => {
      const key = await createKey();
      const res = await post(`/keys/${key.id}/scopes`)
        .set('Content-Type', 'application/json')
        .send('{"scopes": [');
      assert.equal(res.status, 400);
      assert.deepEqual((await get(`/keys/${key.id}`)).body.scopes, ['article:r']);
    });
  });

  describe('GET /activity', () => {
    it("lists every key's activity and filters by key, environment and action", async () => {
      const live = await createKey({ environment: 'live' });
      const test = await createKey({ environment: 'test' });
      await del(`/keys/${live.id}`);
      const actions = async (query: string) =>
        (await get(`/activity${query}`)).body.items.map(
          (e: { keyId: string; action: string }) => `${e.keyId} ${e.action}`,
        );
      assert.equal((await actions('')).length, 3);
      assert.deepEqual(await actions(`?keyId=${test.id}`), [`${test.id} key.created`]);
      assert.deepEqual(await actions('?environment=live'), [
        `${live.id} key.revoked`,
        `${live.id} key.created`,
      ]);
      assert.deepEqual(await actions('?action=key.revoked'), [`${live.id} key.revoked`]);
      const paged = await get('/activity?limit=2');
      assert.equal(paged.body.items.length, 2);
      const rest = await get(`/activity?limit=2&cursor=${encodeURIComponent(paged.body.nextCursor)}`);
      assert.equal(rest.body.items.length, 1);
      assert.equal(rest.body.nextCursor, null);
    });

    it('responds 422 listing each bad query parameter', async () => {
      const res = await get('/activity?environment=prod&action=key.exploded&limit=0&from=yesterday&cursor=');
      assert.equal(res.status, 422);
      assert.deepEqual(res.body.errors.map((e: { pointer: string }) => e.pointer).sort(), [
        '/action',
        '/cursor',
        '/environment',
        '/from',
        '/limit',
      ]);
    });
  });

  it('answers unknown admin API paths with 404 even with a session', async () => {
    const res = await request(a.app).get('/admin/api/nope').set('Cookie', session.cookie);
    assert.equal(res.status, 404);
    assert.equal(res.body.code, 'ROUTE_NOT_FOUND');
  });
});
