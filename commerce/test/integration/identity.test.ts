import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { hasScope, RESOURCES } from '@keygate/identity';
import request from 'supertest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { createTestIdentity } from '../support/identity.ts';
import { assertProblem } from '../support/problem.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Every /v2 route with its method, a valid path, the scope it needs and a body. */
/** `sandboxOnly`: a test-environment route, which this live app answers 403 SANDBOX_ONLY once the scope passed. */
const ROUTES: Array<{ method: Method; path: string; scope: string; body?: unknown; sandboxOnly?: true }> = [
  { method: 'GET', path: '/v2/channels', scope: 'article:r' },
  { method: 'GET', path: '/v2/catalog/products', scope: 'article:r' },
  { method: 'GET', path: '/v2/catalog/products/KG-00002', scope: 'article:r' },
  {
    method: 'PUT',
    path: '/v2/catalog/products/KG-00002/images',
    scope: 'article:rw',
    body: { images: [] },
  },
  { method: 'GET', path: '/v2/media/products/KG-00002/SB.svg', scope: 'article:r' },
  { method: 'POST', path: '/v2/graphql', scope: 'article:r', body: { query: '{ __typename }' } },
  { method: 'GET', path: '/v2/graphql?query=%7B__typename%7D', scope: 'article:r' },
  { method: 'GET', path: '/v2/stock/KG-00002', scope: 'stock:r' },
  { method: 'PUT', path: '/v2/stock/KG-00002', scope: 'stock:rw', body: { onHand: 500 } },
  { method: 'POST', path: '/v2/stock/KG-00002:adjust', scope: 'stock:rw', body: { delta: 1 } },
  { method: 'GET', path: '/v2/customers/cus_0003/pricing', scope: 'pricing:r' },
  { method: 'GET', path: '/v2/customers/cus_0003', scope: 'customer:r' },
  { method: 'POST', path: '/v2/customers', scope: 'customer:rw', body: { name: 'N' } },
  { method: 'PATCH', path: '/v2/customers/cus_0003', scope: 'customer:rw', body: { name: 'N' } },
  { method: 'POST', path: '/v2/carts', scope: 'order:rw', body: { channel: 'WEB_DE' } },
  { method: 'POST', path: '/v2/carts/crt_x/items', scope: 'order:rw', body: { sku: 'KG-00002', qty: 1 } },
  { method: 'GET', path: '/v2/carts/crt_x', scope: 'order:r' },
  { method: 'PATCH', path: '/v2/carts/crt_x/items/KG-00002', scope: 'order:rw', body: { qty: 1 } },
  { method: 'DELETE', path: '/v2/carts/crt_x/items/KG-00002', scope: 'order:rw' },
  { method: 'POST', path: '/v2/carts/crt_x:checkout', scope: 'order:rw' },
  { method: 'GET', path: '/v2/orders/ord_x', scope: 'order:r' },
  { method: 'POST', path: '/v2/orders/ord_x:cancel', scope: 'order:rw' },
  { method: 'POST', path: '/v2/orders/ord_x:fulfil', scope: 'order:rw' },
  { method: 'POST', path: '/v2/prices', scope: 'pricing:rw', body: {} },
  { method: 'GET', path: '/v2/prices/prc_000001', scope: 'pricing:r' },
  { method: 'PUT', path: '/v2/prices/prc_x', scope: 'pricing:rw', body: { amount: 1 } },
  { method: 'DELETE', path: '/v2/prices/prc_x', scope: 'pricing:rw' },
  { method: 'PUT', path: '/v2/vat-rates/DE/zero', scope: 'pricing:rw', body: { rateBp: 0 } },
  { method: 'GET', path: '/v2/webhooks/event-types', scope: 'webhook:r' },
  { method: 'GET', path: '/v2/webhooks/endpoints', scope: 'webhook:r' },
  { method: 'POST', path: '/v2/webhooks/endpoints', scope: 'webhook:rw', body: { url: 'ftp://x' } },
  { method: 'GET', path: '/v2/webhooks/endpoints/whe_x', scope: 'webhook:r' },
  { method: 'PATCH', path: '/v2/webhooks/endpoints/whe_x', scope: 'webhook:rw', body: { enabled: true } },
  { method: 'DELETE', path: '/v2/webhooks/endpoints/whe_x', scope: 'webhook:rw' },
  { method: 'POST', path: '/v2/webhooks/endpoints/whe_x:rotate-secret', scope: 'webhook:rw' },
  { method: 'POST', path: '/v2/webhooks/endpoints/whe_x:close-old-secret', scope: 'webhook:rw' },
  { method: 'POST', path: '/v2/webhooks/endpoints/whe_x:test', scope: 'webhook:rw' },
  { method: 'GET', path: '/v2/webhooks/endpoints/whe_x/deliveries', scope: 'webhook:r' },
  { method: 'POST', path: '/v2/webhooks/deliveries/msg_x:resend', scope: 'webhook:rw' },
  // The sandbox's routes: this app is live, so with the scope they answer 403 SANDBOX_ONLY.
  {
    method: 'POST',
    path: '/v2/webhooks/events:trigger',
    scope: 'webhook:rw',
    body: { type: 'order.created' },
    sandboxOnly: true,
  },
  { method: 'GET', path: '/v2/webhooks/events:stream', scope: 'webhook:r', sandboxOnly: true },
];

/** Every scope there is; a route's "everything else" is all of them that do not grant its scope. */
const EVERY_SCOPE = RESOURCES.flatMap((resource) => [`${resource}:r`, `${resource}:rw`]);

describe('identity on /v2', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ environment: 'live' });
  });
  after(() => t.close());

  const channelHeader = { 'X-Channel': 'WEB_DE' };
  const send = (route: (typeof ROUTES)[number], options: Parameters<TestApp['get']>[1]) => {
    const call = { ...options, headers: channelHeader };
    switch (route.method) {
      case 'GET':
        return t.get(route.path, call);
      case 'DELETE':
        return t.delete(route.path, call);
      case 'POST':
        return t.post(route.path, route.body, call);
      case 'PUT':
        return t.put(route.path, route.body, call);
      case 'PATCH':
        return t.patch(route.path, route.body, call);
    }
  };

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
        const scopes = EVERY_SCOPE.filter((s) => !hasScope([s], route.scope));
        const body = assertProblem(await send(route, { scopes }), 403, 'INSUFFICIENT_SCOPE');
        assert.equal(body.requiredScope, route.scope);
      });
    }
  });

  describe('with exactly the route’s scope', () => {
    for (const route of ROUTES) {
      it(`lets ${route.method} ${route.path} through`, async () => {
        const res = await send(route, { scopes: [route.scope] });
        if (route.sandboxOnly) {
          assertProblem(res, 403, 'SANDBOX_ONLY');
          return;
        }
        assert.notEqual(res.status, 401);
        assert.notEqual(res.status, 403);
      });
    }
  });

  describe('the gateway route table (gateway/routes.json)', () => {
    const table = JSON.parse(
      readFileSync(new URL('../../../gateway/routes.json', import.meta.url), 'utf8'),
    ) as { routes: Array<{ method: string; path: string; scope: string }> };
    /** The gateway's matching: `{name}` is one segment without '/' or ':'. */
    const matches = (pattern: string, path: string) =>
      new RegExp(
        `^${pattern
          .split(/(\{[^}]+\})/)
          .map((part) => (part.startsWith('{') ? '[^/:]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
          .join('')}$`,
      ).test(path.split('?')[0]!);

    it('lists every commerce route with the scope commerce enforces', () => {
      for (const route of ROUTES) {
        const rules = table.routes.filter((r) => r.method === route.method && matches(r.path, route.path));
        assert.equal(rules.length, 1, `${route.method} ${route.path}: ${rules.map((r) => r.path)}`);
        assert.equal(rules[0]?.scope, route.scope, `${route.method} ${route.path}`);
      }
    });
    it('lists no route commerce does not serve', () => {
      for (const rule of table.routes) {
        const served = ROUTES.some((r) => r.method === rule.method && matches(rule.path, r.path));
        assert.ok(served, `${rule.method} ${rule.path}`);
      }
    });
  });
});
