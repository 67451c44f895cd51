import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { startTestGateway, type TestGateway } from '../../support/gateway.ts';
import { seedKey } from '../../support/keys.ts';

const POLICY = 'https://keygate.dev/deprecation-policy';
const ROUTE_DEPRECATION = { at: '2027-01-01T00:00:00Z', sunset: '2027-07-01T00:00:00Z', link: POLICY };
const VERSION_DEPRECATION = {
  at: '2028-03-01T12:30:00+01:00',
  sunset: '2028-09-01T00:00:00Z',
  link: `${POLICY}#v2`,
};

function tableWith(urls: { live: string; test: string }, extra: Record<string, unknown> = {}) {
  return {
    upstreams: { commerce: { audience: 'commerce', ...urls } },
    defaultUpstream: 'commerce',
    routes: [
      { method: 'GET', path: '/v2/catalog/products', scope: 'article:r' },
      { method: 'GET', path: '/v2/channels', scope: 'article:r', deprecation: ROUTE_DEPRECATION },
    ],
    ...extra,
  };
}

describe('versioning and deprecation', () => {
  let gw: TestGateway;
  afterEach(() => gw.stop());

  describe('a deprecated route (GET /v2/channels)', () => {
    beforeEach(async () => {
      gw = await startTestGateway({ routeTable: (urls) => tableWith(urls) });
    });

    describe('with a valid key', () => {
      it('still responds 200 from the upstream with Deprecation, Sunset and Link', async () => {
        const { token } = await seedKey(gw.store, gw.hasher, { scopes: ['article:r'] });
        const res = await request(gw.app).get('/v2/channels').set('Authorization', `Bearer ${token}`);
        assert.equal(res.status, 200);
        assert.equal(res.body.upstream, 'live');
        assert.equal(res.headers.deprecation, '@1798761600');
        assert.equal(res.headers.sunset, 'Thu, 01 Jul 2027 00:00:00 GMT');
        assert.equal(res.headers.link, `<${POLICY}>; rel="deprecation"`);
      });
    });

    describe('without a key', () => {
      it('responds 401 and still announces the deprecation', async () => {
        const res = await request(gw.app).get('/v2/channels');
        assert.equal(res.status, 401);
        assert.equal(res.headers.deprecation, '@1798761600');
        assert.equal(res.headers.sunset, 'Thu, 01 Jul 2027 00:00:00 GMT');
      });
    });

    describe('a route that is not deprecated', () => {
      it('responds 200 without any deprecation header', async () => {
        const { token } = await seedKey(gw.store, gw.hasher, { scopes: ['article:r'] });
        const res = await request(gw.app).get('/v2/catalog/products').set('Authorization', `Bearer ${token}`);
        assert.equal(res.status, 200);
        for (const name of ['deprecation', 'sunset', 'link'])
          assert.equal(res.headers[name], undefined, name);
      });
    });
  });

  describe('a deprecated route whose upstream sends Link, Deprecation and its own hop-by-hop headers', () => {
    let upstream: Server;
    afterEach(() => new Promise((resolve) => upstream.close(resolve)));

    it('keeps the upstream Link beside the policy link; the route table decides Deprecation and Sunset', async () => {
      upstream = createServer((_req, res) => {
        res.writeHead(200, 'Fine', {
          'content-type': 'application/json',
          link: '<https://shop.example/v2/channels?page=2>; rel="next"',
          deprecation: '@1',
          sunset: 'Thu, 01 Jan 1970 00:00:00 GMT',
          'x-request-id': 'upstream-chosen',
          connection: 'keep-alive, x-upstream-hop',
          'x-upstream-hop': 'for the gateway only',
        });
        res.end('{"items":[]}');
      });
      await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
      gw = await startTestGateway({ upstreamUrls: { live: url }, routeTable: (urls) => tableWith(urls) });
      const { token } = await seedKey(gw.store, gw.hasher, { scopes: ['article:r'] });
      const res = await request(gw.app).get('/v2/channels').set('Authorization', `Bearer ${token}`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { items: [] });
      assert.equal(
        res.headers.link,
        `<${POLICY}>; rel="deprecation", <https://shop.example/v2/channels?page=2>; rel="next"`,
      );
      assert.equal(res.headers.deprecation, '@1798761600');
      assert.equal(res.headers.sunset, 'Thu, 01 Jul 2027 00:00:00 GMT');
      assert.match(String(res.headers['x-request-id']), /^req_/);
      assert.equal(res.headers['x-upstream-hop'], undefined);
    });
  });

  describe('a deprecated version (versions.v2.deprecation)', () => {
    beforeEach(async () => {
      gw = await startTestGateway({
        routeTable: (urls) => tableWith(urls, { versions: { v2: { deprecation: VERSION_DEPRECATION } } }),
      });
    });

    it('covers every route of the version; a route deprecation of its own wins', async () => {
      const { token } = await seedKey(gw.store, gw.hasher, { scopes: ['article:r'] });
      const products = await request(gw.app)
        .get('/v2/catalog/products')
        .set('Authorization', `Bearer ${token}`);
      assert.equal(products.status, 200);
      assert.equal(products.headers.deprecation, '@1835523000');
      assert.equal(products.headers.sunset, 'Fri, 01 Sep 2028 00:00:00 GMT');
      assert.equal(products.headers.link, `<${POLICY}#v2>; rel="deprecation"`);
      const channels = await request(gw.app).get('/v2/channels').set('Authorization', `Bearer ${token}`);
      assert.equal(channels.headers.deprecation, '@1798761600');
    });

    it('covers the management routes /v2/auth/keys too', async () => {
      const { token } = await seedKey(gw.store, gw.hasher, { scopes: ['auth:rw'] });
      const res = await request(gw.app).get('/v2/auth/keys').set('Authorization', `Bearer ${token}`);
      assert.equal(res.headers.deprecation, '@1835523000');
      assert.equal(res.headers.sunset, 'Fri, 01 Sep 2028 00:00:00 GMT');
    });
  });

  describe('a call to a version that does not exist', () => {
    beforeEach(async () => {
      gw = await startTestGateway();
    });

    for (const path of ['/v1/catalog/products', '/v3/catalog/products', '/v1']) {
      it(`GET ${path} responds 404 UNKNOWN_API_VERSION naming the supported versions`, async () => {
        const { token } = await seedKey(gw.store, gw.hasher);
        const res = await request(gw.app).get(path).set('Authorization', `Bearer ${token}`);
        assert.equal(res.status, 404);
        assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
        assert.equal(res.body.code, 'UNKNOWN_API_VERSION');
        assert.deepEqual(res.body.supportedVersions, ['v2']);
        assert.match(res.body.detail, /supported: v2/);
        assert.equal(gw.live.seen.length + gw.test.seen.length, 0);
      });
    }

    it('keeps ROUTE_NOT_FOUND for unknown paths inside /v2 and for non-version segments', async () => {
      const { token } = await seedKey(gw.store, gw.hasher);
      const inside = await request(gw.app).get('/v2/nowhere').set('Authorization', `Bearer ${token}`);
      assert.equal(inside.body.code, 'ROUTE_NOT_FOUND');
      const other = await request(gw.app).get('/api/catalog').set('Authorization', `Bearer ${token}`);
      assert.equal(other.body.code, 'ROUTE_NOT_FOUND');
    });
  });
});
