import assert from 'node:assert/strict';
import request from 'supertest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { createTestIdentity } from '../support/identity.ts';
import { assertProblem } from '../support/problem.ts';

/** Every /v2 route with its method, a valid path, the scope it needs and a body. */
const ROUTES: Array<{ method: 'GET' | 'POST'; path: string; scope: string; body?: unknown }> = [
  { method: 'GET', path: '/v2/channels', scope: 'article:r' },
  { method: 'GET', path: '/v2/catalog/products', scope: 'article:r' },
  { method: 'GET', path: '/v2/catalog/products/KG-00002', scope: 'article:r' },
  { method: 'POST', path: '/v2/graphql', scope: 'article:r', body: { query: '{ __typename }' } },
  { method: 'GET', path: '/v2/stock/KG-00002', scope: 'stock:r' },
  { method: 'GET', path: '/v2/customers/cus_0003/pricing', scope: 'pricing:r' },
  { method: 'POST', path: '/v2/carts', scope: 'order:rw', body: { channel: 'WEB_DE' } },
  { method: 'POST', path: '/v2/carts/crt_x/items', scope: 'order:rw', body: { sku: 'KG-00002', qty: 1 } },
  { method: 'GET', path: '/v2/carts/crt_x', scope: 'order:r' },
];

describe('identity on /v2', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ environment: 'live' });
  });
  after(() => t.close());

  const channelHeader = { 'X-Channel': 'WEB_DE' };
  const send = (route: (typeof ROUTES)[number], options: Parameters<TestApp['get']>[1]) =>
    route.method === 'GET'
      ? t.get(route.path, { ...options, headers: channelHeader })
      : t.post(route.path, route.body, { ...options, headers: channelHeader });

  describe('without an assertion', () => {
    for (const route of ROUTES) {
      it(`responds 401 to ${route.method} ${route.path}`, async () => {
        const res = await send(route, { anonymous: true });
        assertProblem(res, 401, 'IDENTITY_MISSING');
        assert.match(String(res.headers['www-authenticate']), /^Bearer/);
      });
    }
    it('responds 401 to an unknown /v2 route too', async () => {
      assertProblem(await t.get('/v2/nothing-here', { anonymous: true }), 401, 'IDENTITY_MISSING');
    });
  });

  describe('with a bad assertion', () => {
    it('responds 401 IDENTITY_INVALID for garbage', async () => {
      const res = await request(t.app).get('/v2/channels').set('X-Keygate-Identity', 'not.a.jwt');
      assertProblem(res, 401, 'IDENTITY_INVALID');
    });
    it('responds 401 IDENTITY_INVALID for a key the gateway never published', async () => {
      const stranger = await createTestIdentity();
      const token = await stranger.assert({ method: 'GET', path: '/v2/channels' });
      assertProblem(
        await request(t.app).get('/v2/channels').set('X-Keygate-Identity', token),
        401,
        'IDENTITY_INVALID',
      );
    });
    it('responds 401 IDENTITY_REQUEST_MISMATCH for an assertion made for another path or query', async () => {
      const token = await t.identity.assert({ method: 'GET', path: '/v2/catalog/products?limit=1' });
      const res = await request(t.app)
        .get('/v2/catalog/products?limit=100')
        .set('X-Channel', 'WEB_DE')
        .set('X-Keygate-Identity', token);
      assertProblem(res, 401, 'IDENTITY_REQUEST_MISMATCH');
    });
    it('responds 401 IDENTITY_REQUEST_MISMATCH for an assertion made for another method', async () => {
      const token = await t.identity.assert({ method: 'GET', path: '/v2/carts' });
      const res = await request(t.app)
        .post('/v2/carts')
        .send({ channel: 'WEB_DE' })
        .set('X-Keygate-Identity', token);
      assertProblem(res, 401, 'IDENTITY_REQUEST_MISMATCH');
    });
    it('responds 401 IDENTITY_WRONG_AUDIENCE for an assertion meant for another service', async () => {
      assertProblem(await t.get('/v2/channels', { audience: 'billing' }), 401, 'IDENTITY_WRONG_AUDIENCE');
    });
  });

  describe('with an assertion for the other environment', () => {
    it('responds 403 ENVIRONMENT_MISMATCH', async () => {
      assertProblem(await t.get('/v2/channels', { environment: 'test' }), 403, 'ENVIRONMENT_MISMATCH');
    });
  });

  describe('without the route’s scope', () => {
    for (const route of ROUTES) {
      it(`responds 403 INSUFFICIENT_SCOPE (${route.scope}) to ${route.method} ${route.path}`, async () => {
        // Everything else, including order:r for an order:rw route (r does not imply rw).
        const scopes = ['article:r', 'order:r', 'stock:r', 'pricing:r', 'customer:rw'].filter(
          (s) => s !== route.scope,
        );
        const body = assertProblem(await send(route, { scopes }), 403, 'INSUFFICIENT_SCOPE');
        assert.equal(body.requiredScope, route.scope);
      });
    }
  });

  describe('with exactly the route’s scope', () => {
    for (const route of ROUTES) {
      it(`lets ${route.method} ${route.path} through`, async () => {
        const res = await send(route, { scopes: [route.scope] });
        assert.notEqual(res.status, 401);
        assert.notEqual(res.status, 403);
      });
    }
  });
});
