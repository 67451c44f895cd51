import assert from 'node:assert/strict';
import request from 'supertest';
import { startTestGateway, type TestGateway } from '../../support/gateway.ts';
import { seedKey } from '../../support/keys.ts';

describe('key pipeline: routes whose upstream serves one environment', () => {
  let gw: TestGateway;
  beforeEach(async () => {
    gw = await startTestGateway({
      routeTable: (urls) => ({
        upstreams: {
          commerce: { audience: 'commerce', ...urls },
          reports: { audience: 'reports', live: urls.live },
        },
        defaultUpstream: 'commerce',
        routes: [
          { method: 'GET', path: '/v2/catalog/products', scope: 'article:r' },
          { method: 'GET', path: '/v2/reports/{id}', scope: 'article:r', upstream: 'reports' },
        ],
      }),
    });
  });
  afterEach(() => gw.stop());

  describe('GET /v2/reports/{id} (live only)', () => {
    describe('with a test key', () => {
      it('responds 403 ENVIRONMENT_MISMATCH without touching any upstream', async () => {
        const { token } = await seedKey(gw.store, gw.hasher, { environment: 'test', scopes: ['article:r'] });
        const res = await request(gw.app).get('/v2/reports/r1').set('Authorization', `Bearer ${token}`);
        assert.equal(res.status, 403);
        assert.equal(res.body.code, 'ENVIRONMENT_MISMATCH');
        assert.equal(res.body.detail, 'This route is not available to test keys.');
        assert.equal(gw.live.seen.length + gw.test.seen.length, 0);
      });

      it('still reaches the test upstream on routes that have one', async () => {
        const { token } = await seedKey(gw.store, gw.hasher, { environment: 'test', scopes: ['article:r'] });
        const res = await request(gw.app).get('/v2/catalog/products').set('Authorization', `Bearer ${token}`);
        assert.equal(res.status, 200);
        assert.equal(res.body.upstream, 'test');
      });
    });

    describe('with a live key', () => {
      it('proxies to the live upstream', async () => {
        const { token } = await seedKey(gw.store, gw.hasher, { scopes: ['article:r'] });
        const res = await request(gw.app).get('/v2/reports/r1').set('Authorization', `Bearer ${token}`);
        assert.equal(res.status, 200);
        assert.equal(res.body.upstream, 'live');
      });
    });
  });

  describe('GET /readyz', () => {
    it('checks only the URLs the table has', async () => {
      const res = await request(gw.app).get('/readyz');
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.failed, []);
      assert.equal(res.body.checks['reports/test'], undefined);
    });
  });
});
