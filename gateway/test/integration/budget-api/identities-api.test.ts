import assert from 'node:assert/strict';
import { type BudgetApi, openBudgetApi } from './budget-app.ts';

const PROBLEM = /^application\/problem\+json/;

for (const backend of ['sqlite', 'redis'] as const) {
  describe(`/v2/auth/identities (${backend})`, function () {
    this.timeout(30_000);
    let api: BudgetApi;
    beforeEach(async () => {
      api = await openBudgetApi(backend);
    });
    afterEach(() => api.close());

    const createIdentity = async (body: object, token = api.tokens.live) => {
      const res = await api.call('post', '/v2/auth/identities', token).send(body);
      assert.equal(res.status, 201, res.text);
      return res.body as { id: string; environment: string; version: number };
    };

    describe('POST /v2/auth/identities', () => {
      it('responds 201 in the calling key’s environment, with a Location, no-store and its fields', async () => {
        const plan = (await api.call('post', '/v2/auth/plans').send({ name: 'Team' })).body;
        const body = {
          externalId: 'cus_1',
          planId: plan.id,
          meta: { company: 'Acme' },
          quotas: [{ period: 'day', limit: 10 }],
          credits: { remaining: 100 },
        };
        const res = await api.call('post', '/v2/auth/identities', api.tokens.test).send(body);
        assert.equal(res.status, 201, res.text);
        assert.match(res.body.id, /^idt_/);
        assert.equal(res.headers.location, `/v2/auth/identities/${res.body.id}`);
        assert.equal(res.headers['cache-control'], 'no-store');
        assert.equal(res.body.environment, 'test');
        assert.equal(res.body.planId, plan.id);
        assert.deepEqual(res.body.meta, { company: 'Acme' });
        assert.deepEqual(res.body.credits, { refill: null });
        assert.deepEqual(res.body.limits, []);
      });

      it('answers 409 IDENTITY_EXISTS for an external id taken in the environment, not in another', async () => {
        await createIdentity({ externalId: 'dup' });
        const again = await api.call('post', '/v2/auth/identities').send({ externalId: 'dup' });
        assert.equal(again.status, 409);
        assert.match(again.headers['content-type'] ?? '', PROBLEM);
        assert.equal(again.body.code, 'IDENTITY_EXISTS');
        await createIdentity({ externalId: 'dup' }, api.tokens.test);
      });

      it('refuses another environment (403 ESCALATION_DENIED) and an unknown plan (404), creating nothing', async () => {
        const other = await api
          .call('post', '/v2/auth/identities')
          .send({ externalId: 'x', environment: 'test' });
        assert.equal(other.status, 403);
        assert.equal(other.body.code, 'ESCALATION_DENIED');
        const noPlan = await api
          .call('post', '/v2/auth/identities')
          .send({ externalId: 'x', planId: 'plan_no' });
        assert.equal(noPlan.status, 404);
        assert.equal(noPlan.body.code, 'PLAN_NOT_FOUND');
        const bad = await api.call('post', '/v2/auth/identities').send({ externalId: '', meta: 'x' });
        assert.equal(bad.status, 422);
        assert.equal(bad.body.code, 'VALIDATION_FAILED');
        assert.deepEqual((await api.call('get', '/v2/auth/identities')).body.items, []);
      });
    });

    describe('GET /v2/auth/identities/{id}', () => {
      it('lists the identity’s keys as public keys, and hides it from keys of another environment', async () => {
        const identity = await createIdentity({ externalId: 'with-keys' });
        const created = await api
          .call('post', '/v2/auth/keys')
          .send({ name: 'customer key', scopes: ['order:r'], identityId: identity.id });
        assert.equal(created.status, 201, created.text);
        const res = await api.call('get', `/v2/auth/identities/${identity.id}`);
        assert.equal(res.status, 200);
        assert.equal(res.body.keys.length, 1);
        assert.equal(res.body.keys[0].id, created.body.id);
        assert.equal(res.body.keys[0].identityId, identity.id);
        assert.equal(res.body.keys[0].secret, undefined, 'a token was listed');
        assert.ok(!JSON.stringify(res.body).includes(created.body.secret), 'the token leaked');
        const hidden = await api.call('get', `/v2/auth/identities/${identity.id}`, api.tokens.test);
        assert.equal(hidden.status, 404);
        assert.equal(hidden.body.code, 'IDENTITY_NOT_FOUND');
      });
    });

    describe('GET /v2/auth/identities', () => {
      it('pages the caller’s environment newest first with a cursor', async () => {
        const made = [];
        for (const externalId of ['a', 'b', 'c']) made.push(await createIdentity({ externalId }));
        await createIdentity({ externalId: 'other' }, api.tokens.test);
        const first = await api.call('get', '/v2/auth/identities?limit=2');
        assert.equal(first.status, 200);
        assert.equal(first.body.items.length, 2);
        assert.ok(first.body.nextCursor);
        const second = await api.call('get', `/v2/auth/identities?limit=2&cursor=${first.body.nextCursor}`);
        assert.equal(second.body.nextCursor, null);
        const ids = [...first.body.items, ...second.body.items].map((item: { id: string }) => item.id);
        assert.deepEqual(ids.sort(), made.map((identity) => identity.id).sort());
        const forced = await api.call('get', '/v2/auth/identities?environment=test');
        assert.ok(
          forced.body.items.every((item: { environment: string }) => item.environment === 'live'),
          'a live key listed test identities',
        );
        const broken = await api.call('get', '/v2/auth/identities?cursor=garbage');
        assert.equal(broken.status, 422);
      });
    });

    describe('PATCH and DELETE /v2/auth/identities/{id}', () => {
      it('replaces the members given and bumps the version', async () => {
        const identity = await createIdentity({ externalId: 'p', meta: { a: 1 } });
        const plan = (await api.call('post', '/v2/auth/plans').send({ name: 'Gold' })).body;
        const res = await api
          .call('patch', `/v2/auth/identities/${identity.id}`)
          .set('Idempotency-Key', 'idt-patch-1')
          .send({ planId: plan.id, meta: { a: 2 } });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.version, 2);
        assert.equal(res.body.planId, plan.id);
        assert.deepEqual(res.body.meta, { a: 2 });
        const replay = await api
          .call('patch', `/v2/auth/identities/${identity.id}`)
          .set('Idempotency-Key', 'idt-patch-1')
          .send({ planId: plan.id, meta: { a: 2 } });
        assert.equal(replay.headers['idempotent-replayed'], 'true');
        const missingPlan = await api
          .call('patch', `/v2/auth/identities/${identity.id}`)
          .send({ planId: 'plan_x' });
        assert.equal(missingPlan.status, 404);
        assert.equal((await api.call('get', `/v2/auth/identities/${identity.id}`)).body.version, 2);
      });

      it('answers 409 IDENTITY_HAS_KEYS while a key belongs to it, then 204 and frees the external id', async () => {
        const identity = await createIdentity({ externalId: 'gone' });
        const keyId = await api.adminKey('live', { identityId: identity.id });
        const refused = await api.call('delete', `/v2/auth/identities/${identity.id}`);
        assert.equal(refused.status, 409);
        assert.equal(refused.body.code, 'IDENTITY_HAS_KEYS');
        await api.call('delete', `/v2/auth/keys/${keyId}`);
        const stillRefused = await api.call('delete', `/v2/auth/identities/${identity.id}`);
        assert.equal(stillRefused.body.code, 'IDENTITY_HAS_KEYS', 'a revoked key still belongs to it');
        const moved = await api.call('patch', `/v2/auth/keys/${keyId}`).send({ identityId: null });
        assert.equal(moved.status, 200, moved.text);
        assert.equal((await api.call('delete', `/v2/auth/identities/${identity.id}`)).status, 204);
        assert.equal((await api.call('get', `/v2/auth/identities/${identity.id}`)).status, 404);
        await createIdentity({ externalId: 'gone' });
      });
    });
  });
}
