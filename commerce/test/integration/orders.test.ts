import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../support/app.ts';
import { assertProblem } from '../support/problem.ts';

/** Sets a product's stock to exactly `onHand` on hand and nothing allocated (fresh apps only). */
function setStock(t: TestApp, sku: string, onHand: number): void {
  t.db.sqlite
    .prepare(
      'UPDATE stock SET on_hand = ?, allocated = 0 WHERE product_id = (SELECT id FROM products WHERE sku = ?)',
    )
    .run(onHand, sku);
}

async function cartWith(t: TestApp, items: Array<[string, number]>, keyId = 'key_test'): Promise<string> {
  const cart = await t.post('/v2/carts', { channel: 'WEB_DE' }, { keyId });
  assert.equal(cart.status, 201, cart.text);
  for (const [sku, qty] of items) {
    const res = await t.post(`/v2/carts/${cart.body.id}/items`, { sku, qty }, { keyId });
    assert.equal(res.status, 200, res.text);
  }
  return cart.body.id;
}

async function stockOf(t: TestApp, sku: string) {
  return (await t.get(`/v2/stock/${sku}`)).body as { onHand: number; allocated: number; available: number };
}

describe('orders', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
    setStock(t, 'KG-00002', 10);
    setStock(t, 'KG-00003', 4);
  });
  afterEach(() => t.close());

  describe('POST /v2/carts/{id}:checkout', () => {
    describe('with a cart whose lines are in stock', () => {
      it('responds 201 with the priced order, allocates stock and closes the cart', async () => {
        const cartId = await cartWith(t, [
          ['KG-00002', 3],
          ['KG-00003', 4],
        ]);
        const cart = (await t.get(`/v2/carts/${cartId}`)).body;
        const res = await t.post(`/v2/carts/${cartId}:checkout`);
        assert.equal(res.status, 201, res.text);
        assert.match(res.body.id, /^ord_/);
        assert.equal(res.headers.location, `/v2/orders/${res.body.id}`);
        assert.equal(res.body.status, 'placed');
        assert.equal(res.body.cartId, cartId);
        assert.deepEqual(
          res.body.lines.map((l: { sku: string; qty: number }) => [l.sku, l.qty]),
          [
            ['KG-00002', 3],
            ['KG-00003', 4],
          ],
        );
        assert.deepEqual(res.body.totals, {
          net: cart.totals.net,
          vat: cart.totals.vat,
          gross: cart.totals.gross,
        });
        assert.deepEqual(await stockOf(t, 'KG-00002'), {
          sku: 'KG-00002',
          onHand: 10,
          allocated: 3,
          available: 7,
        });
        assert.deepEqual(await stockOf(t, 'KG-00003'), {
          sku: 'KG-00003',
          onHand: 4,
          allocated: 4,
          available: 0,
        });
        assert.deepEqual((await t.get(`/v2/orders/${res.body.id}`)).body, res.body);
        const closed = (await t.get(`/v2/carts/${cartId}`)).body;
        assert.equal(closed.checkedOutAt, res.body.createdAt);
        assertProblem(await t.post(`/v2/carts/${cartId}:checkout`), 409, 'CART_CHECKED_OUT');
        assertProblem(
          await t.post(`/v2/carts/${cartId}/items`, { sku: 'KG-00002', qty: 1 }),
          409,
          'CART_CHECKED_OUT',
        );
        assert.equal(
          (await stockOf(t, 'KG-00002')).allocated,
          3,
          'the refused second checkout allocated nothing',
        );
      });
    });

    describe('with one line short of stock', () => {
      it('responds 409 INSUFFICIENT_STOCK with what is available, allocating nothing for any line', async () => {
        const cartId = await cartWith(t, [
          ['KG-00002', 5],
          ['KG-00003', 4],
        ]);
        setStock(t, 'KG-00003', 2);
        const body = assertProblem(await t.post(`/v2/carts/${cartId}:checkout`), 409, 'INSUFFICIENT_STOCK');
        assert.deepEqual(body.lines, [{ sku: 'KG-00003', requested: 4, available: 2 }]);
        assert.equal((await stockOf(t, 'KG-00002')).allocated, 0, 'the first line was rolled back');
        assert.equal((await stockOf(t, 'KG-00003')).allocated, 0);
        assert.deepEqual(t.db.sqlite.prepare('SELECT count(*) AS n FROM orders').get(), { n: 0 });
        assert.equal((await t.get(`/v2/carts/${cartId}`)).body.checkedOutAt, null);
      });
    });

    describe('with 20 concurrent checkouts for the last 5 units', () => {
      it('places exactly 5 orders and allocates exactly 5 units, never more', async () => {
        setStock(t, 'KG-00002', 5);
        const carts: string[] = [];
        for (let i = 0; i < 20; i++) carts.push(await cartWith(t, [['KG-00002', 1]], `key_${i}`));
        const results = await Promise.all(
          carts.map((id, i) => t.post(`/v2/carts/${id}:checkout`, undefined, { keyId: `key_${i}` })),
        );
        const statuses = results.map((r) => r.status);
        assert.equal(statuses.filter((s) => s === 201).length, 5, statuses.join(','));
        assert.equal(statuses.filter((s) => s === 409).length, 15, statuses.join(','));
        for (const refused of results.filter((r) => r.status === 409)) {
          assert.equal(refused.body.code, 'INSUFFICIENT_STOCK');
          assert.deepEqual(refused.body.lines, [{ sku: 'KG-00002', requested: 1, available: 0 }]);
        }
        assert.deepEqual(await stockOf(t, 'KG-00002'), {
          sku: 'KG-00002',
          onHand: 5,
          allocated: 5,
          available: 0,
        });
        assert.deepEqual(t.db.sqlite.prepare('SELECT count(*) AS n FROM orders').get(), { n: 5 });
      });
    });

    describe('with bad requests', () => {
      it('refuses an empty cart (422), another key’s cart (404), a body (422), changing nothing', async () => {
        const empty = await cartWith(t, []);
        assertProblem(await t.post(`/v2/carts/${empty}:checkout`), 422, 'CART_EMPTY');
        const full = await cartWith(t, [['KG-00002', 1]]);
        assertProblem(
          await t.post(`/v2/carts/${full}:checkout`, undefined, { keyId: 'key_other' }),
          404,
          'CART_NOT_FOUND',
        );
        assertProblem(await t.post(`/v2/carts/${full}:checkout`, { note: 'x' }), 422, 'VALIDATION_FAILED');
        assertProblem(await t.post('/v2/carts/crt_nope:checkout'), 404, 'CART_NOT_FOUND');
        assert.deepEqual(t.db.sqlite.prepare('SELECT count(*) AS n FROM orders').get(), { n: 0 });
        assert.equal((await stockOf(t, 'KG-00002')).allocated, 0);
      });
      it('needs order:rw', async () => {
        const cartId = await cartWith(t, [['KG-00002', 1]]);
        const body = assertProblem(
          await t.post(`/v2/carts/${cartId}:checkout`, undefined, { scopes: ['order:r'] }),
          403,
          'INSUFFICIENT_SCOPE',
        );
        assert.equal(body.requiredScope, 'order:rw');
      });
    });
  });

  describe('order status changes', () => {
    async function placeOrder(): Promise<string> {
      const cartId = await cartWith(t, [['KG-00002', 3]]);
      const res = await t.post(`/v2/carts/${cartId}:checkout`);
      assert.equal(res.status, 201, res.text);
      return res.body.id;
    }

    describe('POST /v2/orders/{id}:cancel', () => {
      it('cancels a placed order and releases its allocation; a second cancel is 409', async () => {
        const id = await placeOrder();
        const res = await t.post(`/v2/orders/${id}:cancel`);
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.status, 'cancelled');
        assert.deepEqual(await stockOf(t, 'KG-00002'), {
          sku: 'KG-00002',
          onHand: 10,
          allocated: 0,
          available: 10,
        });
        const body = assertProblem(await t.post(`/v2/orders/${id}:cancel`), 409, 'ORDER_STATUS_CONFLICT');
        assert.deepEqual([body.orderStatus, body.requestedStatus], ['cancelled', 'cancelled']);
        assertProblem(await t.post(`/v2/orders/${id}:fulfil`), 409, 'ORDER_STATUS_CONFLICT');
        assert.equal((await stockOf(t, 'KG-00002')).onHand, 10);
      });
    });

    describe('POST /v2/orders/{id}:fulfil', () => {
      it('ships a placed order: on hand and allocated both drop by its quantity', async () => {
        const id = await placeOrder();
        const res = await t.post(`/v2/orders/${id}:fulfil`);
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.status, 'fulfilled');
        assert.deepEqual(await stockOf(t, 'KG-00002'), {
          sku: 'KG-00002',
          onHand: 7,
          allocated: 0,
          available: 7,
        });
        assertProblem(await t.post(`/v2/orders/${id}:cancel`), 409, 'ORDER_STATUS_CONFLICT');
      });
    });

    describe('GET /v2/orders/{id}', () => {
      it('answers another key, or an unknown id, 404 ORDER_NOT_FOUND', async () => {
        const id = await placeOrder();
        assertProblem(await t.get(`/v2/orders/${id}`, { keyId: 'key_other' }), 404, 'ORDER_NOT_FOUND');
        assertProblem(
          await t.post(`/v2/orders/${id}:cancel`, undefined, { keyId: 'key_other' }),
          404,
          'ORDER_NOT_FOUND',
        );
        assertProblem(await t.get('/v2/orders/ord_nope'), 404, 'ORDER_NOT_FOUND');
        assert.equal((await t.get(`/v2/orders/${id}`, { scopes: ['order:r'] })).status, 200);
      });
    });
  });
});
