import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../support/app.ts';
import { assertProblem } from '../support/problem.ts';

/** Every row of the tables an operation could touch, to prove a refusal changed nothing. */
function snapshot(t: TestApp): unknown {
  const all = (table: string) => t.db.sqlite.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all();
  return ['stock', 'customers', 'prices', 'vat_rates', 'webhook_events'].map(all);
}

describe('stock, customer and price administration', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
    t.db.sqlite.exec("UPDATE stock SET allocated = 0 WHERE product_id = 'prd_00002'");
  });
  afterEach(() => t.close());

  describe('PUT /v2/stock/{sku}', () => {
    it('sets on hand and answers the level', async () => {
      const res = await t.put('/v2/stock/KG-00002', { onHand: 42 });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { sku: 'KG-00002', onHand: 42, allocated: 0, available: 42 });
      assert.deepEqual((await t.get('/v2/stock/KG-00002')).body, res.body);
    });
    it('refuses on hand below what orders hold (409), bad bodies (422) and unknown SKUs (404), changing nothing', async () => {
      const before = snapshot(t);
      const body = assertProblem(
        await t.put('/v2/stock/KG-00007', { onHand: 0 }),
        409,
        'STOCK_BELOW_ALLOCATED',
      );
      assert.ok(Number(body.allocated) > 0);
      for (const bad of [{}, { onHand: -1 }, { onHand: 1.5 }, { onHand: '3' }, { onHand: 3, extra: 1 }]) {
        assertProblem(await t.put('/v2/stock/KG-00002', bad), 422, 'VALIDATION_FAILED');
      }
      assertProblem(await t.put('/v2/stock/NOPE', { onHand: 1 }), 404, 'PRODUCT_NOT_FOUND');
      assertProblem(
        await t.put('/v2/stock/KG-00002', { onHand: 1 }, { scopes: ['stock:r'] }),
        403,
        'INSUFFICIENT_SCOPE',
      );
      assert.deepEqual(snapshot(t), before);
    });
  });

  describe('POST /v2/stock/{sku}:adjust', () => {
    it('adds and removes units', async () => {
      await t.put('/v2/stock/KG-00002', { onHand: 10 });
      assert.equal((await t.post('/v2/stock/KG-00002:adjust', { delta: 5 })).body.onHand, 15);
      assert.equal((await t.post('/v2/stock/KG-00002:adjust', { delta: -15 })).body.onHand, 0);
    });
    it('refuses going below zero or below allocated, and a zero delta, changing nothing', async () => {
      await t.put('/v2/stock/KG-00002', { onHand: 2 });
      const before = snapshot(t);
      assertProblem(await t.post('/v2/stock/KG-00002:adjust', { delta: -3 }), 409, 'STOCK_BELOW_ALLOCATED');
      assertProblem(await t.post('/v2/stock/KG-00007:adjust', { delta: -1 }), 409, 'STOCK_BELOW_ALLOCATED');
      assertProblem(await t.post('/v2/stock/KG-00002:adjust', { delta: 0 }), 422, 'VALIDATION_FAILED');
      assert.deepEqual(snapshot(t), before);
    });
  });

  describe('customers', () => {
    it('POST creates (201, retail by default), GET reads, PATCH changes name and tier', async () => {
      const created = await t.post('/v2/customers', { name: '  Gina Gruber ' });
      assert.equal(created.status, 201, created.text);
      assert.match(created.body.id, /^cus_/);
      assert.equal(created.headers.location, `/v2/customers/${created.body.id}`);
      assert.deepEqual(
        { name: created.body.name, tier: created.body.tier },
        { name: 'Gina Gruber', tier: 'retail' },
      );
      assert.deepEqual(
        (await t.get(`/v2/customers/${created.body.id}`, { scopes: ['customer:r'] })).body,
        created.body,
      );
      const patched = await t.patch(`/v2/customers/${created.body.id}`, { tier: 'gold' });
      assert.equal(patched.status, 200, patched.text);
      assert.equal(patched.body.tier, 'gold');
      assert.equal(patched.body.name, 'Gina Gruber');
    });
    it('refuses bad input (422) and unknown customers (404), changing nothing', async () => {
      const before = snapshot(t);
      for (const bad of [{}, { name: '' }, { name: 'x', tier: 'platinum' }, { name: 'x', vip: true }]) {
        assertProblem(await t.post('/v2/customers', bad), 422, 'VALIDATION_FAILED');
      }
      assertProblem(await t.patch('/v2/customers/cus_0001', {}), 422, 'VALIDATION_FAILED');
      assertProblem(await t.patch('/v2/customers/cus_nope', { tier: 'gold' }), 404, 'CUSTOMER_NOT_FOUND');
      assertProblem(await t.get('/v2/customers/cus_nope'), 404, 'CUSTOMER_NOT_FOUND');
      assertProblem(
        await t.post('/v2/customers', { name: 'x' }, { scopes: ['customer:r'] }),
        403,
        'INSUFFICIENT_SCOPE',
      );
      assert.deepEqual(snapshot(t), before);
    });
  });

  describe('prices', () => {
    const tierPrice = { sku: 'KG-00002', channel: 'WEB_DE', level: 'tier', tier: 'silver', amount: 999 };

    it('POST creates a price row, GET reads it, PUT replaces its terms, DELETE removes it', async () => {
      const created = await t.post('/v2/prices', { ...tierPrice, validFrom: '2026-01-01T00:00:00+01:00' });
      assert.equal(created.status, 201, created.text);
      assert.match(created.body.id, /^prc_/);
      assert.deepEqual(
        { ...created.body, id: 'x', productId: 'x' },
        {
          id: 'x',
          productId: 'x',
          sku: 'KG-00002',
          channel: 'WEB_DE',
          currency: 'EUR',
          level: 'tier',
          tier: 'silver',
          customerId: null,
          minQuantity: 1,
          validFrom: '2025-12-31T23:00:00.000Z',
          validTo: null,
          amount: 999,
        },
      );
      const path = `/v2/prices/${created.body.id}`;
      assert.deepEqual((await t.get(path, { scopes: ['pricing:r'] })).body, created.body);
      const replaced = await t.put(path, { amount: 950, minQuantity: 10 });
      assert.equal(replaced.status, 200, replaced.text);
      assert.deepEqual(
        [replaced.body.amount, replaced.body.minQuantity, replaced.body.validFrom],
        [950, 10, null],
      );
      assert.equal((await t.delete(path)).status, 204);
      assertProblem(await t.get(path), 404, 'PRICE_NOT_FOUND');
    });

    it('refuses inconsistent or unknown references with problem+json, changing nothing', async () => {
      const before = snapshot(t);
      const refusals: Array<[unknown, number, string, string?]> = [
        [{ ...tierPrice, tier: null }, 422, 'VALIDATION_FAILED', '/tier'],
        [{ ...tierPrice, level: 'base' }, 422, 'VALIDATION_FAILED', '/tier'],
        [{ ...tierPrice, level: 'agreement', tier: null }, 422, 'VALIDATION_FAILED', '/customerId'],
        [{ ...tierPrice, amount: -1 }, 422, 'VALIDATION_FAILED', '/amount'],
        [
          { ...tierPrice, validFrom: '2026-02-01T00:00:00Z', validTo: '2026-01-01T00:00:00Z' },
          422,
          'VALIDATION_FAILED',
          '/validTo',
        ],
        [{ ...tierPrice, validFrom: 'soon' }, 422, 'VALIDATION_FAILED', '/validFrom'],
        [{ ...tierPrice, sku: 'NOPE' }, 422, 'UNKNOWN_PRODUCT'],
        [{ ...tierPrice, channel: 'NOPE' }, 422, 'UNKNOWN_CHANNEL'],
        [{ ...tierPrice, level: 'agreement', tier: null, customerId: 'cus_nope' }, 422, 'UNKNOWN_CUSTOMER'],
      ];
      for (const [body, status, code, pointer] of refusals) {
        const problem = assertProblem(await t.post('/v2/prices', body), status, code);
        if (pointer) {
          const pointers = (problem.errors as Array<{ pointer: string }>).map((e) => e.pointer);
          assert.ok(pointers.includes(pointer), `${JSON.stringify(body)}: ${pointers}`);
        }
      }
      assertProblem(
        await t.put('/v2/prices/prc_000001', { amount: 1, level: 'tier' }),
        422,
        'VALIDATION_FAILED',
      );
      assertProblem(await t.put('/v2/prices/prc_nope', { amount: 1 }), 404, 'PRICE_NOT_FOUND');
      assertProblem(
        await t.post('/v2/prices', tierPrice, { scopes: ['pricing:r'] }),
        403,
        'INSUFFICIENT_SCOPE',
      );
      assert.deepEqual(snapshot(t), before);
    });
  });

  describe('PUT /v2/vat-rates/{country}/{taxClass}', () => {
    it('sets a rate that catalogue prices then use', async () => {
      const res = await t.put('/v2/vat-rates/DE/standard', { rateBp: 2000 });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { country: 'DE', taxClass: 'standard', rateBp: 2000 });
      const product = await t.get('/v2/catalog/products/KG-00002', { headers: { 'X-Channel': 'WEB_DE' } });
      assert.equal(product.body.data.price.vatRateBp, 2000);
    });
    it('refuses a bad country, tax class or rate, changing nothing', async () => {
      const before = snapshot(t);
      assertProblem(await t.put('/v2/vat-rates/de/standard', { rateBp: 1 }), 422, 'VALIDATION_FAILED');
      assertProblem(await t.put('/v2/vat-rates/DE/luxury', { rateBp: 1 }), 422, 'VALIDATION_FAILED');
      assertProblem(await t.put('/v2/vat-rates/DE/standard', { rateBp: 10_001 }), 422, 'VALIDATION_FAILED');
      assert.deepEqual(snapshot(t), before);
    });
  });
});
