import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../support/app.ts';
import { assertProblem } from '../support/problem.ts';

const RESET = '/v2/sandbox:reset';
const ADMIN = { keyId: 'adm_0001', scopes: [] };

function countOf(t: TestApp, table: string): number {
  return (t.db.sqlite.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
}

describe('POST /v2/sandbox:reset', () => {
  let t: TestApp;
  afterEach(() => t.close());

  describe('in the test environment', () => {
    beforeEach(async () => {
      t = await createTestApp({
        environment: 'test',
        products: 40,
        webhooks: { allowPrivateAddresses: true },
      });
    });

    it('puts products, prices, stock and customers back to the seed, drops carts, orders, events and deliveries, keeps endpoints', async () => {
      const seeded = await t.get('/v2/stock/KG-00001');
      const products = countOf(t, 'products');
      const endpoint = await t.post('/v2/webhooks/endpoints', { url: 'http://127.0.0.1:9/hooks' });
      assert.equal(endpoint.status, 201);
      for (const type of ['order.created', 'customer.created', 'pricing.price.created']) {
        assert.equal((await t.post('/v2/webhooks/events:trigger', { type })).status, 200);
      }
      await t.put('/v2/stock/KG-00001', { onHand: 3 });
      assert.ok(countOf(t, 'orders') > 0 && countOf(t, 'webhook_deliveries') > 0);

      const res = await t.post(RESET, undefined, ADMIN);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.seeded.products, products, 'the seed of the same size (40 + the sandbox widget)');
      assert.equal(countOf(t, 'products'), products);
      for (const table of [
        'orders',
        'order_lines',
        'carts',
        'cart_lines',
        'webhook_events',
        'webhook_deliveries',
      ])
        assert.equal(countOf(t, table), 0, table);
      assert.equal(countOf(t, 'customers'), res.body.seeded.customers);
      assert.equal(countOf(t, 'prices'), res.body.seeded.prices);
      assert.deepEqual((await t.get('/v2/stock/KG-00001')).body, seeded.body);
      const kept = await t.get(`/v2/webhooks/endpoints/${endpoint.body.id}`);
      assert.equal(kept.status, 200);
    });

    it('is also accepted from the operator CLI (cli:<user>)', async () => {
      assert.equal((await t.post(RESET, undefined, { keyId: 'cli:ops', scopes: [] })).status, 200);
    });

    it("refuses an API key's assertion with 403 ADMIN_ONLY and changes nothing", async () => {
      await t.post('/v2/webhooks/events:trigger', { type: 'order.created' });
      assertProblem(
        await t.post(RESET, undefined, { keyId: 'key_abc', scopes: ['auth:rw'] }),
        403,
        'ADMIN_ONLY',
      );
      assert.equal(countOf(t, 'orders'), 1);
    });

    it('refuses a body with 422 and changes nothing', async () => {
      await t.post('/v2/webhooks/events:trigger', { type: 'order.created' });
      assertProblem(await t.post(RESET, { everything: true }, ADMIN), 422, 'VALIDATION_FAILED');
      assert.equal(countOf(t, 'orders'), 1);
    });
  });

  describe('in the live environment', () => {
    it('answers 403 SANDBOX_ONLY and changes nothing', async () => {
      t = await createTestApp({ environment: 'live' });
      const customers = countOf(t, 'customers');
      await t.post('/v2/customers', { name: 'Kept', tier: 'retail' });
      assertProblem(await t.post(RESET, undefined, ADMIN), 403, 'SANDBOX_ONLY');
      assert.equal(countOf(t, 'customers'), customers + 1);
    });
  });
});
