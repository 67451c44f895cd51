import assert from 'node:assert/strict';
import { type BudgetApi, openBudgetApi } from './budget-app.ts';

const PROBLEM = /^application\/problem\+json/;
const PRO = {
  name: 'Pro',
  limits: [{ name: 'minute', window: 'minute', limit: 100 }],
  quotas: [{ period: 'month', limit: 10_000 }],
  credits: { refill: { interval: 'monthly', amount: 500, day: 1 } },
};

for (const backend of ['sqlite', 'redis'] as const) {
  describe(`/v2/auth/plans (${backend})`, function () {
    this.timeout(30_000);
    let api: BudgetApi;
    beforeEach(async () => {
      api = await openBudgetApi(backend);
    });
    afterEach(() => api.close());

    const createPlan = async (body: object = PRO) => {
      const res = await api.call('post', '/v2/auth/plans').send(body);
      assert.equal(res.status, 201, res.text);
      return res.body as { id: string; version: number };
    };

    describe('POST /v2/auth/plans', () => {
      it('responds 201 with the plan, its id, version 1, a Location and no-store', async () => {
        const res = await api.call('post', '/v2/auth/plans').send(PRO);
        assert.equal(res.status, 201, res.text);
        assert.match(res.body.id, /^plan_/);
        assert.equal(res.headers.location, `/v2/auth/plans/${res.body.id}`);
        assert.equal(res.headers['cache-control'], 'no-store');
        assert.deepEqual(
          {
            name: res.body.name,
            limits: res.body.limits,
            quotas: res.body.quotas,
            credits: res.body.credits,
          },
          PRO,
        );
        assert.equal(res.body.version, 1);
        const read = await api.call('get', res.headers.location as string);
        assert.deepEqual(read.body, res.body);
      });

      it('defaults limits and quotas to none and credits to null', async () => {
        const plan = await createPlan({ name: 'Free' });
        assert.deepEqual(plan, { ...plan, limits: [], quotas: [], credits: null });
      });

      it('responds 422 VALIDATION_FAILED with each problem, creating nothing', async () => {
        const res = await api.call('post', '/v2/auth/plans').send({
          name: '',
          limits: [
            { name: 'minute', window: 'minute', limit: 1 },
            { name: 'minute', window: 'day', limit: 0 },
          ],
          quotas: [{ period: 'year', limit: 5 }],
          extra: true,
        });
        assert.equal(res.status, 422);
        assert.match(res.headers['content-type'] ?? '', PROBLEM);
        assert.equal(res.body.code, 'VALIDATION_FAILED');
        const pointers = (res.body.errors as { pointer: string }[]).map((error) => error.pointer);
        for (const pointer of ['/name', '/limits/1/window', '/limits/1/limit', '/quotas/0/period'])
          assert.ok(pointers.includes(pointer), `no error at ${pointer}: ${JSON.stringify(res.body.errors)}`);
        assert.deepEqual((await api.call('get', '/v2/auth/plans')).body, { items: [] });
      });

      it('refuses a key without auth:rw with 403, creating nothing', async () => {
        const res = await api.call('post', '/v2/auth/plans', api.tokens.reader).send(PRO);
        assert.equal(res.status, 403);
        assert.equal(res.body.code, 'INSUFFICIENT_SCOPE');
        assert.deepEqual((await api.call('get', '/v2/auth/plans')).body, { items: [] });
      });

      it('creates one plan for two requests with one Idempotency-Key, replaying the first answer', async () => {
        const send = () => api.call('post', '/v2/auth/plans').set('Idempotency-Key', 'plan-1').send(PRO);
        const first = await send();
        const again = await send();
        assert.equal(again.status, 201);
        assert.equal(again.headers['idempotent-replayed'], 'true');
        assert.deepEqual(again.body, first.body);
        assert.equal((await api.call('get', '/v2/auth/plans')).body.items.length, 1);
      });
    });

    describe('GET /v2/auth/plans', () => {
      it('lists every plan newest first, to keys of either environment', async () => {
        const first = await createPlan({ name: 'A' });
        const second = await createPlan({ name: 'B' });
        const res = await api.call('get', '/v2/auth/plans', api.tokens.test);
        assert.equal(res.status, 200);
        assert.deepEqual(
          (res.body.items as { id: string }[]).map((plan) => plan.id).sort(),
          [first.id, second.id].sort(),
        );
      });

      it('answers 404 PLAN_NOT_FOUND for an unknown plan', async () => {
        const res = await api.call('get', '/v2/auth/plans/plan_nope');
        assert.equal(res.status, 404);
        assert.match(res.headers['content-type'] ?? '', PROBLEM);
        assert.equal(res.body.code, 'PLAN_NOT_FOUND');
      });
    });

    describe('PATCH /v2/auth/plans/{id}', () => {
      it('replaces the members given, bumps the version and leaves the others', async () => {
        const plan = await createPlan();
        const res = await api
          .call('patch', `/v2/auth/plans/${plan.id}`)
          .send({ quotas: [{ period: 'day', limit: 50 }], credits: null });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.version, 2);
        assert.deepEqual(res.body.quotas, [{ period: 'day', limit: 50 }]);
        assert.equal(res.body.credits, null);
        assert.deepEqual(res.body.limits, PRO.limits);
        assert.deepEqual((await api.call('get', `/v2/auth/plans/${plan.id}`)).body, res.body);
      });

      it('changes nothing for the same values (same version)', async () => {
        const plan = await createPlan();
        const res = await api.call('patch', `/v2/auth/plans/${plan.id}`).send({ name: 'Pro' });
        assert.equal(res.body.version, 1);
      });

      it('answers 422 for an empty or invalid body and 404 for an unknown plan, changing nothing', async () => {
        const plan = await createPlan();
        const empty = await api.call('patch', `/v2/auth/plans/${plan.id}`).send({});
        assert.equal(empty.status, 422);
        const bad = await api.call('patch', `/v2/auth/plans/${plan.id}`).send({ limits: [{ name: 'X' }] });
        assert.equal(bad.status, 422);
        const missing = await api.call('patch', '/v2/auth/plans/plan_nope').send({ name: 'x' });
        assert.equal(missing.status, 404);
        assert.equal(missing.body.code, 'PLAN_NOT_FOUND');
        assert.equal((await api.call('get', `/v2/auth/plans/${plan.id}`)).body.version, 1);
      });
    });

    describe('DELETE /v2/auth/plans/{id}', () => {
      it('answers 409 PLAN_IN_USE while a key names the plan, then 204 once it left', async () => {
        const plan = await createPlan();
        const keyId = await api.adminKey('live', { planId: plan.id });
        const refused = await api.call('delete', `/v2/auth/plans/${plan.id}`);
        assert.equal(refused.status, 409);
        assert.match(refused.headers['content-type'] ?? '', PROBLEM);
        assert.equal(refused.body.code, 'PLAN_IN_USE');
        assert.equal((await api.call('get', `/v2/auth/plans/${plan.id}`)).status, 200);
        const moved = await api.call('patch', `/v2/auth/keys/${keyId}`).send({ planId: null });
        assert.equal(moved.status, 200, moved.text);
        const deleted = await api.call('delete', `/v2/auth/plans/${plan.id}`);
        assert.equal(deleted.status, 204);
        assert.equal((await api.call('get', `/v2/auth/plans/${plan.id}`)).status, 404);
        assert.equal((await api.call('delete', `/v2/auth/plans/${plan.id}`)).status, 404);
      });

      it('answers 409 PLAN_IN_USE while an identity names the plan', async () => {
        const plan = await createPlan();
        const identity = await api
          .call('post', '/v2/auth/identities')
          .send({ externalId: 'c1', planId: plan.id });
        assert.equal(identity.status, 201, identity.text);
        assert.equal((await api.call('delete', `/v2/auth/plans/${plan.id}`)).body.code, 'PLAN_IN_USE');
      });
    });
  });
}
