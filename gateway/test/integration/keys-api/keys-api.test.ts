import assert from 'node:assert/strict';
import request from 'supertest';
import { createHarness, type Harness } from '../../unit/keys/harness.ts';
import { CLIENT_IP, createKeysApiApp } from './app.ts';

const PROBLEM = /^application\/problem\+json/;

describe('/v2/auth/keys', () => {
  let h: Harness;
  let app: ReturnType<typeof createKeysApiApp>;
  /** Bearer token of a live manager key (auth:rw, order:rw, article:r). */
  let manager: string;
  let managerId: string;
  beforeEach(async () => {
    h = createHarness();
    app = createKeysApiApp(h);
    const created = await h.adminCreate({ name: 'manager', scopes: ['auth:rw', 'order:rw', 'article:r'] });
    manager = created.secret;
    managerId = created.key.id;
  });
  afterEach(() => h.cleanup());

  const post = (path: string, token = manager) =>
    request(app).post(`/v2/auth/keys${path}`).auth(token, { type: 'bearer' });
  const get = (path: string, token = manager) =>
    request(app).get(`/v2/auth/keys${path}`).auth(token, { type: 'bearer' });

  async function createChild(body: Record<string, unknown> = {}) {
    const res = await post('/').send({ name: 'child', scopes: ['order:r'], ...body });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body as { id: string; secret: string; prefix: string };
  }

  describe('POST /v2/auth/keys', () => {
    describe('with a valid body', () => {
      it('responds 201 with the key, its token once, a Location and no-store', async () => {
        const res = await post('/').send({ name: 'child', scopes: ['order:r'] });
        assert.equal(res.status, 201);
        assert.equal(res.headers.location, `/v2/auth/keys/${res.body.id}`);
        assert.equal(res.headers['cache-control'], 'no-store');
        assert.deepEqual(Object.keys(res.body).slice(0, 3), ['id', 'prefix', 'secret']);
        assert.ok(res.body.secret.startsWith(`${res.body.prefix}_`));
        assert.equal(res.body.environment, 'live');
        assert.equal(res.body.status, 'active');
        assert.equal(res.body.rotation.secrets[0].callCount, 0);
        const { items } = await h.store.listActivity({ keyId: res.body.id });
        assert.deepEqual(items[0]?.actor, { type: 'key', id: managerId });
        assert.equal(items[0]?.sourceIp, CLIENT_IP);
      });
    });

    describe('with malformed JSON', () => {
      it('responds 400 MALFORMED_BODY as problem+json', async () => {
        const res = await post('/').set('Content-Type', 'application/json').send('{"name": ');
        assert.equal(res.status, 400);
        assert.match(res.headers['content-type'] ?? '', PROBLEM);
        assert.equal(res.body.code, 'MALFORMED_BODY');
      });
    });

    describe('with a body that is not JSON', () => {
      it('responds 400 MALFORMED_BODY', async () => {
        const res = await post('/').set('Content-Type', 'text/plain').send('name=x');
        assert.equal(res.status, 400);
        assert.equal(res.body.code, 'MALFORMED_BODY');
      });
    });

    describe('with a body over 16 kB', () => {
      it('responds 413 PAYLOAD_TOO_LARGE', async () => {
        const res = await post('/').send({ name: 'x', scopes: ['order:r'], pad: 'x'.repeat(17_000) });
        assert.equal(res.status, 413);
        assert.equal(res.body.code, 'PAYLOAD_TOO_LARGE');
      });
    });

    describe('with invalid fields', () => {
      it('responds 422 VALIDATION_FAILED listing each problem with its pointer, creating nothing', async () => {
        const res = await post('/').send({ name: '', scopes: ['nope'], ipAllowlist: ['10.0.0.1/40'] });
        assert.equal(res.status, 422);
        assert.equal(res.body.code, 'VALIDATION_FAILED');
        const pointers = (res.body.errors as Array<{ pointer: string }>).map((e) => e.pointer).sort();
        assert.deepEqual(pointers, ['/ipAllowlist/0', '/name', '/scopes/0']);
        assert.equal((await h.store.listKeys()).length, 1);
      });
    });

    describe('with a scope the caller lacks', () => {
      it('responds 403 ESCALATION_DENIED naming the rule', async () => {
        const res = await post('/').send({ name: 'x', scopes: ['stock:rw'] });
        assert.equal(res.status, 403);
        assert.equal(res.body.code, 'ESCALATION_DENIED');
        assert.equal(res.body.rule, 'scopes');
      });
    });

    describe('with auth:rw requested', () => {
      it('responds 403 ESCALATION_DENIED (auth_scope)', async () => {
        const res = await post('/').send({ name: 'x', scopes: ['auth:rw'] });
        assert.equal(res.status, 403);
        assert.equal(res.body.rule, 'auth_scope');
      });
    });

    describe('with another environment', () => {
      it('responds 403 ESCALATION_DENIED (environment)', async () => {
        const res = await post('/').send({ name: 'x', environment: 'test', scopes: ['order:r'] });
        assert.equal(res.status, 403);
        assert.equal(res.body.rule, 'environment');
      });
    });
  });

  describe('GET /v2/auth/keys', () => {
    it('responds with the caller’s environment only, filtered by status', async () => {
      await h.adminCreate({ name: 'other env', environment: 'test' });
      const child = await createChild();
      await request(app).delete(`/v2/auth/keys/${child.id}`).auth(manager, { type: 'bearer' });
      const all = await get('/');
      assert.equal(all.status, 200);
      assert.deepEqual(
        all.body.items.map((k: { environment: string }) => k.environment),
        ['live', 'live'],
      );
      const revoked = await get('/?status=revoked');
      assert.deepEqual(
        revoked.body.items.map((k: { id: string }) => k.id),
        [child.id],
      );
      const bad = await get('/?status=gone');
      assert.equal(bad.status, 422);
    });
  });

  describe('GET /v2/auth/keys with keys near and far from expiry', () => {
    it('flags expiryReminder only on keys inside the reminder window', async () => {
      // now 2025-03-01T12:00Z; the largest lead time is 7 days.
      const soon = await h.adminCreate({ name: 'soon', expiresAt: '2025-03-05' });
      const later = await h.adminCreate({ name: 'later', expiresAt: '2025-04-30' });
      const reminderOf = async (id: string) => {
        const res = await get('/');
        assert.equal(res.status, 200);
        return res.body.items.find((key: { id: string }) => key.id === id)?.expiryReminder;
      };
      assert.deepEqual(await reminderOf(soon.key.id), { expiresAt: '2025-03-05', daysLeft: 5 });
      assert.equal(await reminderOf(later.key.id), null);
      assert.equal(await reminderOf(managerId), null, 'a key without expiry is never flagged');
      h.clock.set('2025-04-23T23:59:59.999Z');
      assert.equal(await reminderOf(later.key.id), null, 'just before the window');
      h.clock.set('2025-04-24T00:00:00.000Z');
      assert.deepEqual(await reminderOf(later.key.id), { expiresAt: '2025-04-30', daysLeft: 7 });
      assert.equal(await reminderOf(soon.key.id), null, 'expired keys are not flagged');
    });
  });

  describe('GET /v2/auth/keys/{id}', () => {
    it('responds 404 KEY_NOT_FOUND for a key of another environment', async () => {
      const other = await h.adminCreate({ environment: 'test' });
      const res = await get(`/${other.key.id}`);
      assert.equal(res.status, 404);
      assert.equal(res.body.code, 'KEY_NOT_FOUND');
    });
  });

  describe('POST /v2/auth/keys/{id}/scopes', () => {
    it('responds 200 with the changed key, and 403 self_widening for the caller itself', async () => {
      const child = await createChild();
      const res = await post(`/${child.id}/scopes`).send({ scopes: ['order:rw'] });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.scopes, ['order:rw']);
      const self = await post(`/${managerId}/scopes`).send({ scopes: ['auth:rw', 'order:rw', 'article:rw'] });
      assert.equal(self.status, 403);
      assert.equal(self.body.rule, 'self_widening');
      const empty = await post(`/${child.id}/scopes`).send({});
      assert.equal(empty.status, 422);
    });
  });

  describe('DELETE /v2/auth/keys/{id}', () => {
    it('responds 200 with the revoked key, then 409 KEY_NOT_ACTIVE', async () => {
      const child = await createChild();
      const res = await request(app).delete(`/v2/auth/keys/${child.id}`).auth(manager, { type: 'bearer' });
      assert.equal(res.status, 200);
      assert.equal(res.body.status, 'revoked');
      const again = await request(app).delete(`/v2/auth/keys/${child.id}`).auth(manager, { type: 'bearer' });
      assert.equal(again.status, 409);
      assert.equal(again.body.code, 'KEY_NOT_ACTIVE');
    });
  });

  describe('POST /v2/auth/keys/{id}:rotate', () => {
    it('responds 200 with the new token, then 409 ROTATION_IN_PROGRESS', async () => {
      const child = await createChild();
      const res = await post(`/${child.id}:rotate`).send({ overlapDays: 2 });
      assert.equal(res.status, 200);
      assert.notEqual(res.body.secret, child.secret);
      assert.equal(res.body.rotation.inProgress, true);
      assert.equal(res.body.rotation.secrets[1].prefix, child.prefix);
      const again = await post(`/${child.id}:rotate`).send({});
      assert.equal(again.status, 409);
      assert.equal(again.body.code, 'ROTATION_IN_PROGRESS');
    });

    it('accepts no body (one-day overlap) and refuses overlapDays 8 with 422', async () => {
      const child = await createChild();
      assert.equal((await post(`/${child.id}:rotate`).send({ overlapDays: 8 })).status, 422);
      const res = await post(`/${child.id}:rotate`);
      assert.equal(res.status, 200);
      assert.equal(res.body.rotation.secrets[1].closesAt, new Date(h.clock() + 86_400_000).toISOString());
    });
  });

  describe('POST /v2/auth/keys/{id}:close-old-secret', () => {
    it('responds 200 closing the old secret, then 409 NO_ROTATION_IN_PROGRESS', async () => {
      const child = await createChild();
      await post(`/${child.id}:rotate`).send({ overlapDays: 3 });
      const res = await post(`/${child.id}:close-old-secret`);
      assert.equal(res.status, 200);
      assert.equal(res.body.rotation.inProgress, false);
      assert.equal(res.body.rotation.secrets[1].closedReason, 'manual');
      const again = await post(`/${child.id}:close-old-secret`).send({});
      assert.equal(again.status, 409);
      assert.equal(again.body.code, 'NO_ROTATION_IN_PROGRESS');
    });
  });

  describe('GET /v2/auth/keys/{id}/usage', () => {
    it('responds with totals and per-secret usage, refusing bad or too long ranges with 422', async () => {
      const child = await createChild();
      const res = await get(`/${child.id}/usage`);
      assert.equal(res.status, 200);
      assert.equal(res.body.totals.calls, 0);
      assert.equal(res.body.to, new Date(h.clock()).toISOString());
      assert.equal((await get(`/${child.id}/usage?from=yesterday`)).status, 422);
      const tooLong = await get(`/${child.id}/usage?from=2025-01-01T00:00:00Z&to=2025-03-01T00:00:00Z`);
      assert.equal(tooLong.status, 422);
      const ranged = await get(`/${child.id}/usage?from=2025-02-28T00:00:00%2B01:00&to=2025-03-01T00:00:00Z`);
      assert.equal(ranged.body.from, '2025-02-27T23:00:00.000Z');
    });
  });

  describe('GET /v2/auth/keys/{id}/activity', () => {
    it('pages newest first with limit and cursor and filters by action', async () => {
      const child = await createChild();
      for (const scopes of [['order:rw'], ['order:r'], ['article:r']]) {
        h.clock.advance(1000);
        await post(`/${child.id}/scopes`).send({ scopes });
      }
      const first = await get(`/${child.id}/activity?limit=3`);
      assert.equal(first.status, 200);
      assert.equal(first.body.items.length, 3);
      assert.equal(first.body.items[0].after.scopes[0], 'article:r');
      const second = await get(`/${child.id}/activity?limit=3&cursor=${first.body.nextCursor}`);
      assert.deepEqual(
        second.body.items.map((e: { action: string }) => e.action),
        ['key.created'],
      );
      assert.equal(second.body.nextCursor, null);
      const created = await get(`/${child.id}/activity?action=key.created`);
      assert.equal(created.body.items.length, 1);
      assert.equal((await get(`/${child.id}/activity?cursor=zzz`)).status, 422);
      assert.equal((await get(`/${child.id}/activity?limit=0`)).status, 422);
    });
  });

  describe('GET /v2/auth/keys/{id}/logs', () => {
    it('responds with the key’s API log, filtered by secret', async () => {
      const child = await createChild();
      const view = (await get(`/${child.id}`)).body;
      const secretId = view.rotation.secrets[0].id;
      await h.store.appendLogs([
        {
          id: 'req_1',
          keyId: child.id,
          secretId,
          at: new Date(h.clock()).toISOString(),
          method: 'GET',
          path: '/v2/catalog/products',
          status: 200,
          latencyMs: 4,
          clientIp: '203.0.113.1',
        },
      ]);
      const res = await get(`/${child.id}/logs?secretId=${secretId}`);
      assert.equal(res.status, 200);
      assert.deepEqual(
        res.body.items.map((l: { id: string }) => l.id),
        ['req_1'],
      );
      assert.deepEqual((await get(`/${child.id}/logs?secretId=sec_other`)).body.items, []);
    });
  });
});
