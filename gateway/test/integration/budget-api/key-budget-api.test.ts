import assert from 'node:assert/strict';
import { type BudgetApi, openBudgetApi } from './budget-app.ts';

for (const backend of ['sqlite', 'redis'] as const) {
  describe(`/v2/auth/keys budget fields (${backend})`, function () {
    this.timeout(30_000);
    let api: BudgetApi;
    let planId: string;
    let identityId: string;
    beforeEach(async () => {
      api = await openBudgetApi(backend);
      planId = (await api.call('post', '/v2/auth/plans').send({ name: 'Pro' })).body.id;
      identityId = (await api.call('post', '/v2/auth/identities').send({ externalId: 'c' })).body.id;
    });
    afterEach(() => api.close());

    describe('POST /v2/auth/keys with identityId, planId, credits and overrides', () => {
      it('creates the key showing them, and keys without them show none', async () => {
        const res = await api.call('post', '/v2/auth/keys').send({
          name: 'budgeted',
          scopes: ['order:r'],
          planId,
          credits: { remaining: 20, refill: { interval: 'daily', amount: 20 } },
          limits: [{ name: 'burst', window: 'second', limit: 3 }],
        });
        assert.equal(res.status, 201, res.text);
        assert.equal(res.body.identityId, null);
        assert.equal(res.body.planId, planId);
        assert.deepEqual(res.body.credits, { refill: { interval: 'daily', amount: 20 } });
        assert.deepEqual(res.body.limits, [{ name: 'burst', window: 'second', limit: 3 }]);
        assert.deepEqual(res.body.quotas, []);
        const read = await api.call('get', `/v2/auth/keys/${res.body.id}`);
        assert.equal(read.body.planId, planId);
        const member = await api
          .call('post', '/v2/auth/keys')
          .send({ name: 'member', scopes: ['order:r'], identityId, planId });
        assert.equal(member.status, 201, member.text);
        assert.equal(member.body.identityId, identityId);
        assert.equal(member.body.credits, null, "a key of an identity spends the identity's credits");
        const plain = await api.call('post', '/v2/auth/keys').send({ name: 'plain', scopes: ['order:r'] });
        const { identityId: i, planId: p, limits, quotas, credits } = plain.body;
        assert.deepEqual(
          { i, p, limits, quotas, credits },
          { i: null, p: null, limits: [], quotas: [], credits: null },
        );
      });

      it('answers 404 for an unknown plan or an identity of another environment, creating nothing', async () => {
        const count = async () => (await api.call('get', '/v2/auth/keys')).body.items.length;
        const before = await count();
        const noPlan = await api
          .call('post', '/v2/auth/keys')
          .send({ name: 'x', scopes: ['order:r'], planId: 'plan_no' });
        assert.equal(noPlan.status, 404);
        assert.equal(noPlan.body.code, 'PLAN_NOT_FOUND');
        const testIdentity = (
          await api.call('post', '/v2/auth/identities', api.tokens.test).send({ externalId: 't' })
        ).body.id;
        const foreign = await api
          .call('post', '/v2/auth/keys')
          .send({ name: 'x', scopes: ['order:r'], identityId: testIdentity });
        assert.equal(foreign.status, 404);
        assert.equal(foreign.body.code, 'IDENTITY_NOT_FOUND');
        const bad = await api
          .call('post', '/v2/auth/keys')
          .send({ name: 'x', scopes: ['order:r'], credits: { remaining: -1 } });
        assert.equal(bad.status, 422);
        assert.equal(await count(), before);
      });
    });

    describe('PATCH /v2/auth/keys/{id}', () => {
      it('replaces the budget fields, bumps the version and logs key.budget_changed', async () => {
        const created = await api.call('post', '/v2/auth/keys').send({ name: 'k', scopes: ['order:r'] });
        const res = await api
          .call('patch', `/v2/auth/keys/${created.body.id}`)
          .send({ planId, identityId, quotas: [{ period: 'week', limit: 70 }] });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.version, created.body.version + 1);
        assert.equal(res.body.planId, planId);
        assert.equal(res.body.identityId, identityId);
        assert.deepEqual(res.body.quotas, [{ period: 'week', limit: 70 }]);
        const activity = await api.call(
          'get',
          `/v2/auth/keys/${created.body.id}/activity?action=key.budget_changed`,
        );
        assert.equal(activity.body.items.length, 1);
        assert.deepEqual(activity.body.items[0].before, { planId: null, identityId: null, quotas: [] });
        const identity = await api.call('get', `/v2/auth/identities/${identityId}`);
        assert.deepEqual(
          identity.body.keys.map((key: { id: string }) => key.id),
          [created.body.id],
        );
        const same = await api.call('patch', `/v2/auth/keys/${created.body.id}`).send({ planId });
        assert.equal(same.body.version, res.body.version, 'the same plan again changed the key');
      });

      it('honours Idempotency-Key: a replay answers the same, another body under the key is 422', async () => {
        const created = await api.call('post', '/v2/auth/keys').send({ name: 'k', scopes: ['order:r'] });
        const patch = (body: object) =>
          api.call('patch', `/v2/auth/keys/${created.body.id}`).set('Idempotency-Key', 'budget-1').send(body);
        const first = await patch({ planId });
        const replay = await patch({ planId });
        assert.equal(replay.headers['idempotent-replayed'], 'true');
        assert.deepEqual(replay.body, first.body);
        const reused = await patch({ planId: null });
        assert.equal(reused.status, 422);
        assert.equal(reused.body.code, 'IDEMPOTENCY_KEY_REUSED');
        assert.equal((await api.call('get', `/v2/auth/keys/${created.body.id}`)).body.planId, planId);
      });

      it('answers 422 for an empty body or a balance (its own endpoint), 404 for another environment’s key', async () => {
        const created = await api.call('post', '/v2/auth/keys').send({ name: 'k', scopes: ['order:r'] });
        const empty = await api.call('patch', `/v2/auth/keys/${created.body.id}`).send({});
        assert.equal(empty.status, 422);
        const credits = await api
          .call('patch', `/v2/auth/keys/${created.body.id}`)
          .send({ credits: { remaining: 1 } });
        assert.equal(credits.status, 422);
        const foreign = await api
          .call('patch', `/v2/auth/keys/${created.body.id}`, api.tokens.test)
          .send({ planId });
        assert.equal(foreign.status, 404);
        assert.equal(foreign.body.code, 'KEY_NOT_FOUND');
        assert.equal(
          (await api.call('get', `/v2/auth/keys/${created.body.id}`)).body.version,
          created.body.version,
        );
      });
    });
  });
}
