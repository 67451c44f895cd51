import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../support/app.ts';

/**
 * The response cache drops exactly the answers a write can change: a write to a table drops the
 * cached answers that read it (the rows of it they read) and keeps every other one, and the next
 * read of a dropped answer shows the write. Whether an answer came from the cache is seen from the
 * statements the request ran: computing any catalogue answer looks its channel up, a cached one
 * never does.
 */

const WEB_DE = { 'X-Channel': 'WEB_DE' };
const WEB_CH = { 'X-Channel': 'WEB_CH' };
const GRAPHQL_PAGE =
  '{ products(channel: WEB_DE, first: 10) { sku name price { amount vatRateBp } stock { available } } }';

/** The cached answers every test starts from, by name: path and headers (GraphQL: the query). */
const ANSWERS: Record<string, { path: string; headers?: Record<string, string>; graphql?: string }> = {
  list: { path: '/v2/catalog/products?limit=10', headers: WEB_DE },
  listOfCustomer: { path: '/v2/catalog/products?limit=10&customer=cus_0003', headers: WEB_DE },
  listInStock: { path: '/v2/catalog/products?limit=10&inStock=true', headers: WEB_DE },
  search: { path: '/v2/catalog/products?q=KG-0003', headers: WEB_DE },
  listInCH: { path: '/v2/catalog/products?limit=10', headers: WEB_CH },
  product: { path: '/v2/catalog/products/KG-00002', headers: WEB_DE },
  productOfCustomer: { path: '/v2/catalog/products/KG-00002?customer=cus_0004', headers: WEB_DE },
  farProduct: { path: '/v2/catalog/products/KG-00035', headers: WEB_DE },
  graphql: { path: '/v2/graphql', graphql: GRAPHQL_PAGE },
};
const ALL = Object.keys(ANSWERS).sort();
/** The answers that show KG-00002 (the first pages of WEB_DE and WEB_CH, its own pages). */
const SHOWING_KG_00002 = [
  'graphql',
  'list',
  'listInCH',
  'listInStock',
  'listOfCustomer',
  'product',
  'productOfCustomer',
];
/** The answers that show KG-00006 (a product with tier prices, sold out in the seed). */
const SHOWING_KG_00006 = ['graphql', 'list', 'listOfCustomer'];
/** The answers of channels in Germany (WEB_DE; WEB_CH is Switzerland). */
const IN_DE = ALL.filter((name) => name !== 'listInCH');

interface Product {
  sku: string;
  name: string;
  price: { amount: number; vatRateBp: number };
  stock: { available: number };
}

describe('response cache: what each write drops', () => {
  let t: TestApp;
  const statements: string[] = [];
  beforeEach(async () => {
    statements.length = 0;
    t = await createTestApp({
      onStatement: (sql) => void statements.push(sql),
      webhooks: { allowPrivateAddresses: true },
    });
  });
  afterEach(() => t.close());

  /** Asks for an answer; its products, and whether it was computed (not served from the cache). */
  async function ask(name: string): Promise<{ products: Product[]; computed: boolean }> {
    const answer = ANSWERS[name];
    assert.ok(answer, name);
    statements.length = 0;
    const res = answer.graphql
      ? await t.post(answer.path, { query: answer.graphql })
      : await t.get(answer.path, { headers: answer.headers ?? {} });
    assert.equal(res.status, 200, `${name}: ${res.text}`);
    const data = answer.graphql ? res.body.data.products : res.body.data;
    return {
      products: Array.isArray(data) ? data : [data],
      computed: statements.some((sql) => /from channels where code =/i.test(sql)),
    };
  }

  /** Every answer asked twice: the second time from the cache. */
  async function warm(): Promise<void> {
    for (const name of ALL) {
      await ask(name);
      assert.equal((await ask(name)).computed, false, `${name} is cached`);
    }
  }

  /** Warms the cache, makes the write, and names the answers computed again afterwards. */
  async function droppedBy(write: () => Promise<unknown> | unknown): Promise<string[]> {
    await warm();
    await write();
    const dropped: string[] = [];
    for (const name of ALL) if ((await ask(name)).computed) dropped.push(name);
    return dropped;
  }

  async function product(name: string, sku: string): Promise<Product> {
    const found = (await ask(name)).products.find((p) => p.sku === sku);
    assert.ok(found, `${sku} in ${name}`);
    return found;
  }

  function ok(res: { status: number; text: string }, status = 200): void {
    assert.equal(res.status, status, res.text);
  }

  function priceId(sku: string, level: 'base' | 'tier'): string {
    const row = t.db.sqlite
      .prepare(
        `SELECT r.id FROM prices r JOIN products p ON p.id = r.product_id
         WHERE p.sku = ? AND r.channel_code = 'WEB_DE' AND r.level = ?
         ORDER BY r.min_quantity LIMIT 1`,
      )
      .get(sku, level) as { id: string } | undefined;
    assert.ok(row, `a ${level} price of ${sku}`);
    return row.id;
  }

  it('the answers the tests rely on show what the tests expect', async () => {
    for (const name of SHOWING_KG_00002) await product(name, 'KG-00002');
    for (const name of SHOWING_KG_00006) await product(name, 'KG-00006');
    const inStock = (await ask('listInStock')).products.map((p) => p.sku);
    assert.ok(!inStock.includes('KG-00006'), 'KG-00006 is sold out in the seed');
    const searched = (await ask('search')).products.map((p) => p.sku);
    assert.ok(searched.length > 0 && searched.every((sku) => sku.startsWith('KG-0003')), searched.join());
  });

  it('carts and their lines: a quantity change drops nothing', async () => {
    const cart = await t.post('/v2/carts', { channel: 'WEB_DE' });
    ok(cart, 201);
    ok(await t.post(`/v2/carts/${cart.body.id}/items`, { sku: 'KG-00002', qty: 1 }));
    const dropped = await droppedBy(async () => {
      ok(await t.patch(`/v2/carts/${cart.body.id}/items/KG-00002`, { qty: 3 }));
      ok(await t.post(`/v2/carts/${cart.body.id}/items`, { sku: 'KG-00035', qty: 1 }));
      ok(await t.post('/v2/carts', { channel: 'WEB_CH' }), 201);
    });
    assert.deepEqual(dropped, []);
  });

  it('orders and their lines: a write drops nothing', async () => {
    const cart = await t.post('/v2/carts', { channel: 'WEB_DE' });
    ok(await t.post(`/v2/carts/${cart.body.id}/items`, { sku: 'KG-00035', qty: 1 }));
    const order = await t.post(`/v2/carts/${cart.body.id}:checkout`);
    ok(order, 201);
    const dropped = await droppedBy(() => {
      t.db.sqlite
        .prepare("UPDATE orders SET updated_at = '2026-06-02T00:00:00.000Z' WHERE id = ?")
        .run(order.body.id);
      t.db.sqlite.prepare('UPDATE order_lines SET qty = qty WHERE order_id = ?').run(order.body.id);
    });
    assert.deepEqual(dropped, []);
  });

  it('customers: a change drops only that customer’s answers, a new customer none', async () => {
    assert.deepEqual(
      await droppedBy(async () => ok(await t.patch('/v2/customers/cus_0003', { name: 'Renamed' }))),
      ['listOfCustomer'],
    );
    assert.deepEqual(
      await droppedBy(async () => ok(await t.post('/v2/customers', { name: 'New' }), 201)),
      [],
    );
    assert.deepEqual(
      await droppedBy(async () => ok(await t.patch('/v2/customers/cus_0004', { tier: 'retail' }))),
      ['productOfCustomer'],
    );
    assert.equal(
      (await product('productOfCustomer', 'KG-00002')).price.amount,
      (await product('product', 'KG-00002')).price.amount,
    );
  });

  it('stock: a change drops the answers that show the product and those filtered by stock', async () => {
    const before = (await t.get('/v2/stock/KG-00002')).body;
    const dropped = await droppedBy(async () =>
      ok(await t.put('/v2/stock/KG-00002', { onHand: before.onHand + 500 })),
    );
    assert.deepEqual(dropped, SHOWING_KG_00002);
    for (const name of SHOWING_KG_00002) {
      assert.equal((await product(name, 'KG-00002')).stock.available, before.available + 500, name);
    }
  });

  it('stock: a change of a product on no first page drops its answers and the stock-filtered list', async () => {
    const dropped = await droppedBy(async () => ok(await t.post('/v2/stock/KG-00035:adjust', { delta: 3 })));
    assert.deepEqual(dropped, ['farProduct', 'listInStock', 'search']);
  });

  it('prices: a base price drops its channel’s lists and the product’s answers there', async () => {
    const dropped = await droppedBy(async () =>
      ok(await t.put(`/v2/prices/${priceId('KG-00002', 'base')}`, { amount: 4242 })),
    );
    assert.deepEqual(dropped, [
      'graphql',
      'list',
      'listInStock',
      'listOfCustomer',
      'product',
      'productOfCustomer',
      'search',
    ]);
    assert.equal((await product('list', 'KG-00002')).price.amount, 4242);
    assert.equal((await product('graphql', 'KG-00002')).price.amount, 4242);
  });

  it('prices: a tier price drops only the answers that show that product in that channel', async () => {
    const dropped = await droppedBy(async () =>
      ok(await t.put(`/v2/prices/${priceId('KG-00006', 'tier')}`, { amount: 1 })),
    );
    assert.deepEqual(dropped, SHOWING_KG_00006);
  });

  it('vat_rates: a rate drops the answers of channels in that country', async () => {
    const dropped = await droppedBy(async () =>
      ok(await t.put('/v2/vat-rates/DE/standard', { rateBp: 700 })),
    );
    assert.deepEqual(dropped, IN_DE);
    assert.equal((await product('product', 'KG-00002')).price.vatRateBp, 700);
  });

  it('products: an edit drops every list and the product’s own page', async () => {
    const dropped = await droppedBy(() =>
      t.db.sqlite.prepare("UPDATE products SET name = 'Renamed' WHERE sku = 'KG-00035'").run(),
    );
    assert.deepEqual(
      dropped,
      ALL.filter((name) => !['product', 'productOfCustomer'].includes(name)),
    );
    assert.equal((await product('farProduct', 'KG-00035')).name, 'Renamed');
  });

  it('channels: any change drops every answer', async () => {
    const dropped = await droppedBy(() =>
      t.db.sqlite.prepare("UPDATE channels SET name = 'Renamed' WHERE code = 'WEB_CH'").run(),
    );
    assert.deepEqual(dropped, ALL);
  });

  it('webhook endpoints and idempotency records: a write drops nothing', async () => {
    const dropped = await droppedBy(async () =>
      ok(
        await t.post(
          '/v2/webhooks/endpoints',
          { url: 'http://127.0.0.1:9/hooks' },
          { headers: { 'Idempotency-Key': 'cache-test-1' } },
        ),
        201,
      ),
    );
    assert.deepEqual(dropped, []);
  });
});
