import assert from 'node:assert/strict';
import { generateSeedRows, SEED_SKUS } from '../../src/seed/seed-data.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { assertProblem } from '../support/problem.ts';

const SEED = generateSeedRows({ environment: 'live' });

function baseAmount(sku: string, channelCode: string, minQuantity: number): number {
  const id = SEED.products.find((p) => p.sku === sku)?.id;
  const row = SEED.prices.find(
    (p) =>
      p.productId === id &&
      p.channelCode === channelCode &&
      p.level === 'base' &&
      (p.minQuantity ?? 1) === minQuantity,
  );
  assert.ok(row);
  return row.amount;
}

describe('cart routes', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  async function createCart(body: Record<string, unknown> = { channel: 'WEB_DE' }): Promise<string> {
    const res = await t.post('/v2/carts', body);
    assert.equal(res.status, 201, res.text);
    return res.body.id;
  }

  /** Every cart and cart line, to prove a rejected write changed nothing. */
  function snapshot() {
    return {
      carts: t.db.sqlite.prepare('SELECT * FROM carts ORDER BY id').all(),
      lines: t.db.sqlite.prepare('SELECT * FROM cart_lines ORDER BY id').all(),
      stock: t.db.sqlite.prepare('SELECT * FROM stock ORDER BY product_id').all(),
    };
  }

  describe('POST /v2/carts', () => {
    describe('with a channel', () => {
      it('responds 201 with an empty cart, a crt_ id of ≥128 bits and a Location', async () => {
        const res = await t.post('/v2/carts', { channel: 'WEB_DE' }, { keyId: 'key_creator' });
        assert.equal(res.status, 201);
        assert.match(res.body.id, /^crt_[A-Za-z0-9_-]{22}$/);
        assert.equal(res.headers.location, `/v2/carts/${res.body.id}`);
        assert.deepEqual(res.body.lines, []);
        assert.deepEqual(res.body.totals, { net: 0, vat: 0, gross: 0, currency: 'EUR' });
        assert.equal(res.body.keyId, 'key_creator');
        assert.equal(res.body.customerId, null);
      });
    });
    describe('with a customer', () => {
      it('keeps the customer on the cart', async () => {
        const res = await t.post('/v2/carts', { channel: 'B2B_DE', customerId: 'cus_0005' });
        assert.equal(res.status, 201);
        assert.equal(res.body.customerId, 'cus_0005');
        assert.equal(res.body.currency, 'EUR');
      });
    });
    describe('with bad input', () => {
      it('responds 422 for a missing or unknown channel and an unknown customer, creating nothing', async () => {
        const before = snapshot();
        assertProblem(await t.post('/v2/carts', {}), 422, 'VALIDATION_FAILED');
        assertProblem(await t.post('/v2/carts', { channel: 'NOPE' }), 422, 'UNKNOWN_CHANNEL');
        assertProblem(
          await t.post('/v2/carts', { channel: 'WEB_DE', customerId: 'cus_x' }),
          422,
          'UNKNOWN_CUSTOMER',
        );
        assert.deepEqual(snapshot(), before);
      });
      it('responds 400 MALFORMED_JSON for a broken body', async () => {
        assertProblem(await t.post('/v2/carts', '{"channel": '), 400, 'MALFORMED_JSON');
      });
      it('responds 415 UNSUPPORTED_MEDIA_TYPE problem+json for a body that is not JSON', async () => {
        const before = snapshot();
        const res = await t.post('/v2/carts', undefined, {
          headers: { 'Content-Type': 'text/plain', 'Content-Length': '5' },
        });
        const body = assertProblem(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
        assert.match(String(body.detail), /application\/json/);
        assert.deepEqual(snapshot(), before);
      });
    });
  });

  describe('POST /v2/carts/{id}/items', () => {
    describe('with a sold, stocked product', () => {
      it('adds a priced line and the cart totals', async () => {
        const id = await createCart();
        const res = await t.post(`/v2/carts/${id}/items`, { sku: 'KG-00002', qty: 3 });
        assert.equal(res.status, 200, res.text);
        const [line] = res.body.lines;
        const unit = baseAmount('KG-00002', 'WEB_DE', 1);
        assert.equal(line.sku, 'KG-00002');
        assert.equal(line.qty, 3);
        assert.equal(line.unitPrice.gross, unit);
        assert.deepEqual(line.total, {
          net: line.unitPrice.net * 3,
          vat: line.unitPrice.vat * 3,
          gross: unit * 3,
        });
        assert.deepEqual(res.body.totals, { ...line.total, currency: 'EUR' });
      });
    });
    describe('with a SKU already in the cart', () => {
      it('increases the line and prices it with the quantity break it reaches', async () => {
        const id = await createCart();
        await t.post(`/v2/carts/${id}/items`, { sku: SEED_SKUS.quantityBreaks, qty: 6 });
        const res = await t.post(`/v2/carts/${id}/items`, { sku: SEED_SKUS.quantityBreaks, qty: 4 });
        assert.equal(res.status, 200);
        assert.equal(res.body.lines.length, 1);
        assert.equal(res.body.lines[0].qty, 10);
        assert.equal(res.body.lines[0].unitPrice.minQuantity, 10);
        assert.equal(res.body.lines[0].unitPrice.gross, baseAmount(SEED_SKUS.quantityBreaks, 'WEB_DE', 10));
        assert.equal(res.body.totals.gross, baseAmount(SEED_SKUS.quantityBreaks, 'WEB_DE', 10) * 10);
      });
    });
    describe('with several lines in a net-priced channel', () => {
      it('sums net, VAT and gross over lines, all integers', async () => {
        const id = await createCart({ channel: 'B2B_DE', customerId: 'cus_0005' });
        await t.post(`/v2/carts/${id}/items`, { sku: 'KG-00001', qty: 2 });
        const res = await t.post(`/v2/carts/${id}/items`, { sku: SEED_SKUS.quantityBreaks, qty: 20 });
        assert.equal(res.body.lines[1].unitPrice.source, 'agreement');
        assert.equal(res.body.lines[1].unitPrice.minQuantity, 20);
        const sum = (key: 'net' | 'vat' | 'gross') =>
          res.body.lines.reduce(
            (acc: number, l: { total: Record<string, number> }) => acc + (l.total[key] ?? 0),
            0,
          );
        assert.deepEqual(res.body.totals, {
          net: sum('net'),
          vat: sum('vat'),
          gross: sum('gross'),
          currency: 'EUR',
        });
        for (const v of Object.values(res.body.totals).slice(0, 3)) assert.ok(Number.isInteger(v));
        const get = await t.get(`/v2/carts/${id}`);
        assert.deepEqual(get.body, res.body);
      });
    });
    describe('with a bad qty', () => {
      for (const qty of [0, 1000, 1.5, 'x']) {
        it(`responds 422 VALIDATION_FAILED for ${JSON.stringify(qty)} at /qty`, async () => {
          const id = await createCart();
          const body = assertProblem(
            await t.post(`/v2/carts/${id}/items`, { sku: 'KG-00002', qty }),
            422,
            'VALIDATION_FAILED',
          );
          assert.deepEqual(body.errors, [{ detail: 'qty must be an integer 1..999', pointer: '/qty' }]);
        });
      }
    });
    describe('with an unknown SKU', () => {
      it('responds 422 UNKNOWN_PRODUCT', async () => {
        const id = await createCart();
        assertProblem(
          await t.post(`/v2/carts/${id}/items`, { sku: 'NOPE-1', qty: 1 }),
          422,
          'UNKNOWN_PRODUCT',
        );
      });
    });
    describe('with a product not sold in the cart’s channel', () => {
      it('responds 422 NOT_SOLD_IN_CHANNEL', async () => {
        const id = await createCart({ channel: 'WEB_CH' });
        assertProblem(
          await t.post(`/v2/carts/${id}/items`, { sku: SEED_SKUS.notInWebCh, qty: 1 }),
          422,
          'NOT_SOLD_IN_CHANNEL',
        );
      });
    });
    describe('with more than the available stock', () => {
      it('responds 409 INSUFFICIENT_STOCK with available', async () => {
        const id = await createCart();
        const body = assertProblem(
          await t.post(`/v2/carts/${id}/items`, { sku: SEED_SKUS.lowStock, qty: 4 }),
          409,
          'INSUFFICIENT_STOCK',
        );
        assert.equal(body.available, 3);
        assert.equal(body.requested, 4);
      });
      it('counts the quantity already on the line', async () => {
        const id = await createCart();
        assert.equal(
          (await t.post(`/v2/carts/${id}/items`, { sku: SEED_SKUS.lowStock, qty: 2 })).status,
          200,
        );
        const body = assertProblem(
          await t.post(`/v2/carts/${id}/items`, { sku: SEED_SKUS.lowStock, qty: 2 }),
          409,
          'INSUFFICIENT_STOCK',
        );
        assert.deepEqual([body.available, body.requested], [3, 4]);
      });
      it('refuses an out-of-stock product with available 0', async () => {
        const id = await createCart();
        for (const sku of [SEED_SKUS.outOfStock, SEED_SKUS.fullyAllocated]) {
          const body = assertProblem(
            await t.post(`/v2/carts/${id}/items`, { sku, qty: 1 }),
            409,
            'INSUFFICIENT_STOCK',
          );
          assert.equal(body.available, 0);
        }
      });
    });
    describe('with a line that would pass 999 units', () => {
      it('responds 422 LINE_QUANTITY_LIMIT (checked before stock)', async () => {
        const id = await createCart();
        assert.equal((await t.post(`/v2/carts/${id}/items`, { sku: 'KG-00002', qty: 1 })).status, 200);
        const body = assertProblem(
          await t.post(`/v2/carts/${id}/items`, { sku: 'KG-00002', qty: 999 }),
          422,
          'LINE_QUANTITY_LIMIT',
        );
        assert.equal(body.maxQuantity, 999);
      });
    });
    describe('with an unknown cart', () => {
      it('responds 404 CART_NOT_FOUND', async () => {
        assertProblem(
          await t.post('/v2/carts/crt_nope/items', { sku: 'KG-00002', qty: 1 }),
          404,
          'CART_NOT_FOUND',
        );
      });
    });
    describe('with any rejected write', () => {
      it('changes nothing: carts, lines and stock stay as they were', async () => {
        const id = await createCart();
        await t.post(`/v2/carts/${id}/items`, { sku: SEED_SKUS.lowStock, qty: 2 });
        const before = snapshot();
        const cartBefore = (await t.get(`/v2/carts/${id}`)).body;
        const rejected = [
          await t.post(`/v2/carts/${id}/items`, { sku: SEED_SKUS.lowStock, qty: 2 }),
          await t.post(`/v2/carts/${id}/items`, { sku: SEED_SKUS.outOfStock, qty: 1 }),
          await t.post(`/v2/carts/${id}/items`, { sku: 'KG-00002', qty: 0 }),
          await t.post(`/v2/carts/${id}/items`, { sku: 'KG-00002', qty: 1000 }),
          await t.post(`/v2/carts/${id}/items`, { sku: 'NOPE', qty: 1 }),
          await t.post(`/v2/carts/${id}/items`, '{"sku":'),
          await t.post(`/v2/carts/${id}/items`, { sku: 'KG-00002', qty: 1 }, { scopes: ['order:r'] }),
          await t.post('/v2/carts', { channel: 'WEB_DE' }, { scopes: ['article:r'] }),
          await t.post('/v2/carts', { channel: 'WEB_DE' }, { environment: 'test' }),
        ];
        assert.deepEqual(
          rejected.map((r) => r.status),
          [409, 409, 422, 422, 422, 400, 403, 403, 403],
        );
        assert.deepEqual(snapshot(), before);
        assert.deepEqual((await t.get(`/v2/carts/${id}`)).body, cartBefore);
      });
    });
  });

  describe('PATCH and DELETE /v2/carts/{id}/items/{sku}', () => {
    const breaks = SEED_SKUS.quantityBreaks;
    async function cartWithTwoLines(keyId = 'key_lines'): Promise<string> {
      const id = await createCartFor(keyId);
      for (const sku of [breaks, 'KG-00010']) {
        const res = await t.post(`/v2/carts/${id}/items`, { sku, qty: 2 }, { keyId });
        assert.equal(res.status, 200, res.text);
      }
      return id;
    }
    async function createCartFor(keyId: string): Promise<string> {
      const res = await t.post('/v2/carts', { channel: 'WEB_DE' }, { keyId });
      assert.equal(res.status, 201, res.text);
      return res.body.id;
    }

    it('PATCH sets the quantity and reprices the line at its quantity break', async () => {
      const id = await cartWithTwoLines();
      const res = await t.patch(`/v2/carts/${id}/items/${breaks}`, { qty: 10 }, { keyId: 'key_lines' });
      assert.equal(res.status, 200, res.text);
      const line = res.body.lines.find((l: { sku: string }) => l.sku === breaks);
      assert.equal(line.qty, 10);
      assert.equal(line.unitPrice.minQuantity, 10);
      assert.equal(line.unitPrice.amount, baseAmount(breaks, 'WEB_DE', 10));
      assert.equal(line.total.gross, line.unitPrice.gross * 10);
      const read = await t.get(`/v2/carts/${id}`, { keyId: 'key_lines' });
      assert.deepEqual(read.body.lines, res.body.lines);
      assert.equal(read.body.totals.gross, res.body.totals.gross);
    });
    it('PATCH keeps the lines in the order they were first added', async () => {
      const keyId = 'key_order';
      const id = await createCartFor(keyId);
      // Added out of SKU (and product id) order, so an answer in index order would differ.
      const skus = ['KG-00010', 'KG-00002', 'KG-00005'];
      for (const sku of skus) {
        const res = await t.post(`/v2/carts/${id}/items`, { sku, qty: 1 }, { keyId });
        assert.equal(res.status, 200, res.text);
      }
      const res = await t.patch(`/v2/carts/${id}/items/KG-00002`, { qty: 4 }, { keyId });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(
        res.body.lines.map((l: { sku: string; qty: number }) => [l.sku, l.qty]),
        [
          ['KG-00010', 1],
          ['KG-00002', 4],
          ['KG-00005', 1],
        ],
      );
      const read = await t.get(`/v2/carts/${id}`, { keyId });
      assert.deepEqual(read.body.lines, res.body.lines);
    });
    it('DELETE removes the line and the totals drop by its total', async () => {
      const id = await cartWithTwoLines();
      const before = await t.get(`/v2/carts/${id}`, { keyId: 'key_lines' });
      const removed = before.body.lines.find((l: { sku: string }) => l.sku === breaks);
      const res = await t.delete(`/v2/carts/${id}/items/${breaks}`, { keyId: 'key_lines' });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(
        res.body.lines.map((l: { sku: string }) => l.sku),
        ['KG-00010'],
      );
      assert.equal(res.body.totals.gross, before.body.totals.gross - removed.total.gross);
    });
    it('refuse a line the cart does not have with 404 CART_LINE_NOT_FOUND, changing nothing', async () => {
      const id = await cartWithTwoLines();
      const state = snapshot();
      const own = { keyId: 'key_lines' };
      for (const sku of ['KG-00011', 'NOPE-1']) {
        assertProblem(
          await t.patch(`/v2/carts/${id}/items/${sku}`, { qty: 1 }, own),
          404,
          'CART_LINE_NOT_FOUND',
        );
        assertProblem(await t.delete(`/v2/carts/${id}/items/${sku}`, own), 404, 'CART_LINE_NOT_FOUND');
      }
      assert.deepEqual(snapshot(), state);
    });
    it('refuse a bad quantity with 422 and more than the stock with 409 INSUFFICIENT_STOCK', async () => {
      const id = await cartWithTwoLines();
      const state = snapshot();
      const own = { keyId: 'key_lines' };
      for (const body of [{ qty: 0 }, { qty: 1000 }, { qty: 1.5 }, {}, []]) {
        assertProblem(await t.patch(`/v2/carts/${id}/items/${breaks}`, body, own), 422, 'VALIDATION_FAILED');
      }
      const short = assertProblem(
        await t.patch(`/v2/carts/${id}/items/${SEED_SKUS.lowStock}`, { qty: 1 }, own),
        404,
        'CART_LINE_NOT_FOUND',
      );
      assert.ok(short.detail);
      const available = (await t.get(`/v2/stock/${breaks}`)).body.available as number;
      const tooMany = assertProblem(
        await t.patch(`/v2/carts/${id}/items/${breaks}`, { qty: available + 1 }, own),
        409,
        'INSUFFICIENT_STOCK',
      );
      assert.equal(tooMany.available, available);
      assert.deepEqual(snapshot(), state);
    });
    it('answer another key exactly like an unknown cart', async () => {
      const id = await cartWithTwoLines('key_a');
      const state = snapshot();
      const other = { keyId: 'key_b' };
      assertProblem(
        await t.patch(`/v2/carts/${id}/items/${breaks}`, { qty: 3 }, other),
        404,
        'CART_NOT_FOUND',
      );
      assertProblem(await t.delete(`/v2/carts/${id}/items/${breaks}`, other), 404, 'CART_NOT_FOUND');
      assert.deepEqual(snapshot(), state);
    });
    it('need order:rw', async () => {
      const id = await cartWithTwoLines();
      const readOnly = { keyId: 'key_lines', scopes: ['order:r'] };
      assert.equal((await t.patch(`/v2/carts/${id}/items/${breaks}`, { qty: 3 }, readOnly)).status, 403);
      assert.equal((await t.delete(`/v2/carts/${id}/items/${breaks}`, readOnly)).status, 403);
    });
    it('refuse a checked-out cart with 409 CART_CHECKED_OUT', async () => {
      const id = await cartWithTwoLines();
      const own = { keyId: 'key_lines' };
      assert.equal((await t.post(`/v2/carts/${id}:checkout`, {}, own)).status, 201);
      assertProblem(
        await t.patch(`/v2/carts/${id}/items/${breaks}`, { qty: 3 }, own),
        409,
        'CART_CHECKED_OUT',
      );
      assertProblem(await t.delete(`/v2/carts/${id}/items/${breaks}`, own), 409, 'CART_CHECKED_OUT');
    });
  });

  describe('a cart of another API key', () => {
    it('responds 404 CART_NOT_FOUND on GET and POST items, exactly like an unknown cart', async () => {
      const created = await t.post('/v2/carts', { channel: 'WEB_DE' }, { keyId: 'key_owner' });
      assert.equal(created.status, 201);
      const id = created.body.id;
      const before = snapshot();
      const other = { keyId: 'key_other' };
      const read = assertProblem(await t.get(`/v2/carts/${id}`, other), 404, 'CART_NOT_FOUND');
      const write = assertProblem(
        await t.post(`/v2/carts/${id}/items`, { sku: 'KG-00002', qty: 1 }, other),
        404,
        'CART_NOT_FOUND',
      );
      const unknown = assertProblem(
        await t.get('/v2/carts/crt_AAAAAAAAAAAAAAAAAAAAAA', other),
        404,
        'CART_NOT_FOUND',
      );
      for (const body of [read, write]) {
        assert.equal(body.detail, `There is no cart ${id}.`);
        assert.deepEqual(Object.keys(body).sort(), Object.keys(unknown).sort());
      }
      assert.deepEqual(snapshot(), before);
    });
    it('stays readable and writable by the key that created it (its id survives rotation)', async () => {
      const owner = { keyId: 'key_rotated' };
      const created = await t.post('/v2/carts', { channel: 'WEB_DE' }, owner);
      const id = created.body.id;
      // After a rotation the gateway still sends the same key id, only the secret differs.
      const added = await t.post(`/v2/carts/${id}/items`, { sku: 'KG-00002', qty: 1 }, owner);
      assert.equal(added.status, 200, added.text);
      const read = await t.get(`/v2/carts/${id}`, { ...owner, scopes: ['order:r'] });
      assert.equal(read.status, 200);
      assert.equal(read.body.keyId, 'key_rotated');
      assert.equal(read.body.lines.length, 1);
    });
  });

  describe('GET /v2/carts/{id}', () => {
    describe('with order:r only', () => {
      it('responds with the cart', async () => {
        const id = await createCart();
        const res = await t.get(`/v2/carts/${id}`, { scopes: ['order:r'] });
        assert.equal(res.status, 200);
        assert.equal(res.body.id, id);
      });
    });
    describe('with an unknown id', () => {
      it('responds 404 CART_NOT_FOUND', async () => {
        assertProblem(await t.get('/v2/carts/crt_AAAAAAAAAAAAAAAAAAAAAA'), 404, 'CART_NOT_FOUND');
      });
    });
  });
});

describe('POST /v2/carts/{id}/items when pricing the line fails', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.close());

  describe('with the VAT rate of the product’s tax class missing', () => {
    it('responds 500 and leaves the cart unchanged and readable', async () => {
      const reduced = SEED.products.find((p) => p.taxClass === 'reduced' && p.id === 'prd_00005');
      assert.ok(reduced, 'KG-00005 is a reduced-VAT product sold in WEB_DE');
      const created = await t.post('/v2/carts', { channel: 'WEB_DE' });
      const id = created.body.id;
      assert.equal((await t.post(`/v2/carts/${id}/items`, { sku: 'KG-00002', qty: 1 })).status, 200);
      const before = (await t.get(`/v2/carts/${id}`)).body;
      const rows = () =>
        t.db.sqlite.prepare('SELECT * FROM cart_lines WHERE cart_id = ? ORDER BY id').all(id);
      const linesBefore = rows();
      t.db.sqlite.prepare("DELETE FROM vat_rates WHERE country = 'DE' AND tax_class = 'reduced'").run();

      const res = await t.post(`/v2/carts/${id}/items`, { sku: reduced.sku, qty: 1 });
      assertProblem(res, 500, 'INTERNAL_ERROR');
      assert.deepEqual(rows(), linesBefore);
      const after = await t.get(`/v2/carts/${id}`);
      assert.equal(after.status, 200, after.text);
      assert.deepEqual(after.body, before);
    });
  });
});
