import assert from 'node:assert/strict';
import { SEED_SKUS } from '../../src/seed/seed-data.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { createTestIdentity } from '../support/identity.ts';
import { assertProblem } from '../support/problem.ts';

describe('live and test environments', () => {
  let live: TestApp;
  let test: TestApp;
  before(async () => {
    const identity = await createTestIdentity();
    live = await createTestApp({ environment: 'live', identity });
    test = await createTestApp({ environment: 'test', identity });
  });
  after(() => {
    live.close();
    test.close();
  });

  it('use two different database files', () => {
    assert.notEqual(live.db.file, test.db.file);
  });

  describe('a cart created in test', () => {
    it('is 404 in live', async () => {
      const created = await test.post('/v2/carts', { channel: 'WEB_DE' });
      assert.equal(created.status, 201);
      assert.equal((await test.get(`/v2/carts/${created.body.id}`)).status, 200);
      assertProblem(await live.get(`/v2/carts/${created.body.id}`), 404, 'CART_NOT_FOUND');
    });
  });

  describe('the test-only product', () => {
    it('appears only in test', async () => {
      const headers = { 'X-Channel': 'WEB_DE' };
      const inTest = await test.get(`/v2/catalog/products/${SEED_SKUS.testOnly}`, { headers });
      assert.equal(inTest.status, 200);
      assert.match(inTest.body.data.name, /test environment only/);
      assertProblem(
        await live.get(`/v2/catalog/products/${SEED_SKUS.testOnly}`, { headers }),
        404,
        'PRODUCT_NOT_FOUND',
      );
      const listed = async (app: TestApp) =>
        (await app.get('/v2/catalog/products?limit=100', { headers })).body.data.map(
          (p: { sku: string }) => p.sku,
        );
      assert.ok((await listed(test)).includes(SEED_SKUS.testOnly));
      assert.ok(!(await listed(live)).includes(SEED_SKUS.testOnly));
    });
  });

  describe('an assertion for the test environment', () => {
    it('is refused by the live app with 403 and accepted by the test app', async () => {
      assertProblem(await live.get('/v2/channels', { environment: 'test' }), 403, 'ENVIRONMENT_MISMATCH');
      assertProblem(await test.get('/v2/channels', { environment: 'live' }), 403, 'ENVIRONMENT_MISMATCH');
      assert.equal((await test.get('/v2/channels', { environment: 'test' })).status, 200);
    });
  });
});
