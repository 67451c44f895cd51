import assert from 'node:assert/strict';
import request from 'supertest';
import { type AdminApp, type LoggedIn, logIn, read, send, startAdminApp } from './admin-app.ts';

describe('/admin/api/plans and /admin/api/identities as administrator', () => {
  let a: AdminApp;
  let session: LoggedIn;
  beforeEach(async () => {
    a = await startAdminApp();
    session = await logIn(a.app);
  });
  afterEach(() => a.close());

  it('manages plans and identities of both environments with the /v2/auth handlers, no-store', async () => {
    const plan = await send(a.app, 'post', '/plans', session).send({ name: 'Pro' });
    assert.equal(plan.status, 201, plan.text);
    assert.equal(plan.headers.location, `/admin/api/plans/${plan.body.id}`);
    assert.equal(plan.headers['cache-control'], 'no-store');
    const changed = await send(a.app, 'patch', `/plans/${plan.body.id}`, session).send({
      quotas: [{ period: 'month', limit: 100 }],
    });
    assert.equal(changed.status, 200, changed.text);
    assert.equal(changed.body.version, 2);
    for (const environment of ['live', 'test']) {
      const created = await send(a.app, 'post', '/identities', session).send({
        externalId: 'acme',
        environment,
        planId: plan.body.id,
      });
      assert.equal(created.status, 201, created.text);
    }
    const listed = await read(a.app, '/identities', session);
    assert.equal(listed.body.items.length, 2);
    const inUse = await send(a.app, 'delete', `/plans/${plan.body.id}`, session);
    assert.equal(inUse.status, 409);
    assert.equal(inUse.body.code, 'PLAN_IN_USE');
  });

  it('refuses a change without the session’s CSRF token, changing nothing', async () => {
    const plan = await send(a.app, 'post', '/plans', session).send({ name: 'Pro' });
    const forged = await request(a.app)
      .patch(`/admin/api/plans/${plan.body.id}`)
      .set('Cookie', session.cookie)
      .send({ name: 'Evil' });
    assert.equal(forged.status, 403);
    assert.equal((await read(a.app, `/plans/${plan.body.id}`, session)).body.name, 'Pro');
  });
});
