import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { changeTags } from '../../src/db/change-log.ts';
import { createResponseCache } from '../../src/http/response-cache.ts';
import { createTestApp, TEST_NOW, type TestApp } from '../support/app.ts';

/**
 * The catalogue and GraphQL response cache: a change to anything an answer shows is visible on the
 * very next request, whether commerce made it or another connection wrote the SQLite file, and no
 * caller ever gets another caller's answer.
 */

interface ProductJson {
  sku: string;
  name: string;
  price: { amount: number; gross: number; vatRateBp: number; source: string };
  stock: { available: number };
}

const SKU = 'KG-00002';
const CHANNEL = { 'X-Channel': 'WEB_DE' };

function productOf(products: ProductJson[], sku: string): ProductJson {
  const product = products.find((p) => p.sku === sku);
  assert.ok(product, `${sku} is on the page`);
  return product;
}

/** Writes the database file through a second connection, as another process would. */
function writeFromOutside(t: TestApp, sql: string, ...params: unknown[]): void {
  const other = new Database(t.db.file);
  try {
    other.pragma('busy_timeout = 5000');
    const result = other.prepare(sql).run(...params);
    assert.equal(result.changes, 1, sql);
  } finally {
    other.close();
  }
}

describe('response cache', () => {
  let t: TestApp;
  let now: Date;
  const statements: string[] = [];
  beforeEach(async () => {
    now = TEST_NOW;
    statements.length = 0;
    t = await createTestApp({ clock: () => now, onStatement: (sql) => void statements.push(sql) });
  });
  afterEach(() => t.close());

  async function rest(customer?: string): Promise<ProductJson[]> {
    const query = customer ? `&customer=${customer}` : '';
    const res = await t.get(`/v2/catalog/products?limit=50${query}`, { headers: CHANNEL });
    assert.equal(res.status, 200, res.text);
    return res.body.data;
  }

  async function detail(customer?: string): Promise<ProductJson> {
    const query = customer ? `?customer=${customer}` : '';
    const res = await t.get(`/v2/catalog/products/${SKU}${query}`, { headers: CHANNEL });
    assert.equal(res.status, 200, res.text);
    return res.body.data;
  }

  async function graphql(customer?: string): Promise<ProductJson[]> {
    const args = customer ? `, customer: "${customer}"` : '';
    const query = `{ products(channel: WEB_DE, first: 50${args}) {
      sku name price { amount gross vatRateBp source } stock { available } } }`;
    const res = await t.post('/v2/graphql', { query });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.errors, undefined, res.text);
    return res.body.data.products;
  }

  /** The product as the REST page, the product route and GraphQL show it, each asked twice (cached). */
  async function everyView(customer?: string, sku = SKU): Promise<ProductJson[]> {
    const views: ProductJson[] = [];
    for (let round = 0; round < 2; round += 1) {
      views.push(productOf(await rest(customer), sku));
      if (sku === SKU) views.push(await detail(customer));
      views.push(productOf(await graphql(customer), sku));
    }
    return views;
  }

  function basePriceId(sku: string): string {
    const row = t.db.sqlite
      .prepare(
        `SELECT r.id FROM prices r JOIN products p ON p.id = r.product_id
         WHERE p.sku = ? AND r.channel_code = 'WEB_DE' AND r.level = 'base' AND r.min_quantity = 1`,
      )
      .get(sku) as { id: string };
    return row.id;
  }

  it('answers a repeated request from the cache (one statement: the data version)', async () => {
    for (const ask of [() => rest(), () => graphql(), () => detail()]) {
      const first = await ask();
      statements.length = 0;
      assert.deepEqual(await ask(), first);
      assert.equal(statements.length, 1, statements.join('\n'));
    }
  });

  it('answers If-None-Match with 304 from a cached page', async () => {
    const first = await t.get('/v2/catalog/products?limit=50', { headers: CHANNEL });
    const etag = first.headers.etag;
    assert.ok(etag);
    const again = await t.get('/v2/catalog/products?limit=50', {
      headers: { ...CHANNEL, 'If-None-Match': etag },
    });
    assert.equal(again.status, 304);
  });

  describe('a price change', () => {
    it('made through PUT /v2/prices/{id} shows on the next request', async () => {
      await everyView();
      const res = await t.put(`/v2/prices/${basePriceId(SKU)}`, { amount: 12_345 });
      assert.equal(res.status, 200, res.text);
      for (const view of await everyView()) assert.equal(view.price.amount, 12_345);
    });
    it('written by another connection shows on the next request', async () => {
      await everyView();
      writeFromOutside(t, 'UPDATE prices SET amount = 54321 WHERE id = ?', basePriceId(SKU));
      for (const view of await everyView()) assert.equal(view.price.amount, 54_321);
    });
  });

  describe('a VAT rate change', () => {
    it('made through PUT /v2/vat-rates shows on the next request', async () => {
      await everyView();
      const res = await t.put('/v2/vat-rates/DE/standard', { rateBp: 700 });
      assert.equal(res.status, 200, res.text);
      for (const view of await everyView()) assert.equal(view.price.vatRateBp, 700);
    });
    it('written by another connection shows on the next request', async () => {
      await everyView();
      writeFromOutside(
        t,
        "UPDATE vat_rates SET rate_bp = 2500 WHERE country = 'DE' AND tax_class = 'standard'",
      );
      for (const view of await everyView()) assert.equal(view.price.vatRateBp, 2500);
    });
  });

  describe('a stock change', () => {
    const available = async () => (await t.get(`/v2/stock/${SKU}`)).body.available as number;
    it('made through PUT /v2/stock/{sku} shows on the next request', async () => {
      const before = await everyView();
      const onHand = (before[0]?.stock.available ?? 0) + 1000;
      assert.equal((await t.put(`/v2/stock/${SKU}`, { onHand })).status, 200);
      const expected = await available();
      for (const view of await everyView()) assert.equal(view.stock.available, expected);
    });
    it('written by another connection shows on the next request', async () => {
      const before = await everyView();
      writeFromOutside(
        t,
        "UPDATE stock SET on_hand = on_hand + 77 WHERE product_id = (SELECT id FROM products WHERE sku = 'KG-00002')",
      );
      for (const view of await everyView())
        assert.equal(view.stock.available, (before[0]?.stock.available ?? 0) + 77);
    });
  });

  describe('customer pricing', () => {
    it('a new agreement made through POST /v2/prices shows on the next request of that customer', async () => {
      for (const view of await everyView('cus_0003')) assert.notEqual(view.price.source, 'agreement');
      const res = await t.post('/v2/prices', {
        sku: SKU,
        channel: 'WEB_DE',
        level: 'agreement',
        customerId: 'cus_0003',
        amount: 111,
      });
      assert.equal(res.status, 201, res.text);
      for (const view of await everyView('cus_0003')) {
        assert.deepEqual([view.price.amount, view.price.source], [111, 'agreement']);
      }
    });
    it('an agreement written by another connection shows on the next request of that customer', async () => {
      await everyView('cus_0003');
      writeFromOutside(
        t,
        `INSERT INTO prices (id, product_id, channel_code, level, customer_id, min_quantity, amount)
         SELECT 'prc_outside', id, 'WEB_DE', 'agreement', 'cus_0003', 1, 222 FROM products WHERE sku = ?`,
        SKU,
      );
      for (const view of await everyView('cus_0003')) {
        assert.deepEqual([view.price.amount, view.price.source], [222, 'agreement']);
      }
    });
    it("a customer's new tier (PATCH /v2/customers/{id}) shows on the next request", async () => {
      // KG-00006 has tier prices; a gold customer moved to retail pays base.
      for (const view of await everyView('cus_0004', 'KG-00006')) assert.equal(view.price.source, 'tier');
      assert.equal((await t.patch('/v2/customers/cus_0004', { tier: 'retail' })).status, 200);
      for (const view of await everyView('cus_0004', 'KG-00006')) assert.equal(view.price.source, 'base');
    });
    it("a customer's tier written by another connection shows on the next request", async () => {
      await everyView('cus_0004', 'KG-00006');
      writeFromOutside(t, "UPDATE customers SET tier = 'retail' WHERE id = 'cus_0004'");
      for (const view of await everyView('cus_0004', 'KG-00006')) assert.equal(view.price.source, 'base');
    });
  });

  describe('a product edit', () => {
    it("made on commerce's own connection shows on the next request", async () => {
      await everyView();
      t.db.sqlite.prepare("UPDATE products SET name = 'Renamed inside' WHERE sku = ?").run(SKU);
      for (const view of await everyView()) assert.equal(view.name, 'Renamed inside');
    });
    it('written by another connection shows on the next request', async () => {
      await everyView();
      writeFromOutside(t, "UPDATE products SET name = 'Renamed outside' WHERE sku = ?", SKU);
      for (const view of await everyView()) assert.equal(view.name, 'Renamed outside');
    });
  });

  it('never gives one customer the page of another (agreements differ)', async () => {
    // cus_0003 and cus_0004 are both gold; only cus_0003 has agreements on KG-00003 and KG-00004.
    const sourceOf = (products: ProductJson[]) => productOf(products, 'KG-00003').price.source;
    for (let round = 0; round < 3; round += 1) {
      assert.equal(sourceOf(await rest('cus_0003')), 'agreement');
      assert.equal(sourceOf(await rest('cus_0004')), 'tier');
      assert.equal(sourceOf(await rest()), 'base');
      assert.equal(sourceOf(await graphql('cus_0003')), 'agreement');
      assert.equal(sourceOf(await graphql('cus_0004')), 'tier');
      assert.equal(sourceOf(await graphql()), 'base');
    }
  });

  describe('time', () => {
    it('a price that starts later shows once the clock reaches it, and not when the clock goes back', async () => {
      const start = new Date(TEST_NOW.getTime() + 3_600_000).toISOString();
      const res = await t.post('/v2/prices', {
        sku: SKU,
        channel: 'WEB_DE',
        level: 'base',
        amount: 1,
        validFrom: start,
      });
      assert.equal(res.status, 201, res.text);
      const before = await everyView();
      for (const view of before) assert.notEqual(view.price.amount, 1);
      now = new Date(Date.parse(start));
      for (const view of await everyView()) assert.equal(view.price.amount, 1);
      now = TEST_NOW;
      assert.deepEqual(await everyView(), before);
    });
  });
});

describe('response cache bounds', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.close());

  const response = (bytes: number) => ({
    body: Buffer.alloc(bytes),
    contentType: 'application/json',
    etag: '',
  });

  it('keeps at most maxEntries entries, dropping the least recently used', () => {
    const cache = createResponseCache(t.db, () => TEST_NOW, { maxBytes: 1_000_000, maxEntries: 3 });
    const generation = cache.begin();
    for (const key of ['a', 'b', 'c']) cache.store(generation, key, response(10), []);
    assert.ok(cache.get(generation, 'a'), 'a is used again');
    cache.store(generation, 'd', response(10), []);
    assert.equal(cache.size().entries, 3);
    assert.equal(cache.get(generation, 'b'), undefined, 'b, the least recently used, went');
    for (const key of ['a', 'c', 'd']) assert.ok(cache.get(generation, key), key);
  });

  it('keeps at most maxBytes bytes and refuses an entry larger than that', () => {
    const maxBytes = 10_000;
    const cache = createResponseCache(t.db, () => TEST_NOW, { maxBytes, maxEntries: 1000 });
    const generation = cache.begin();
    for (let i = 0; i < 100; i += 1) {
      cache.store(generation, `key-${i}`, response(1000), []);
      assert.ok(cache.size().bytes <= maxBytes, `${cache.size().bytes} bytes after ${i + 1}`);
    }
    assert.ok(cache.get(generation, 'key-99'), 'the newest is kept');
    assert.ok(cache.size().entries < 10);
    cache.store(generation, 'huge', response(maxBytes + 1), []);
    assert.equal(cache.get(generation, 'huge'), undefined);
  });

  it('drops the entries filed under a tag a write logged, and ignores answers of an older generation', () => {
    const cache = createResponseCache(t.db, () => TEST_NOW, { maxBytes: 1_000_000, maxEntries: 100 });
    const old = cache.begin();
    cache.store(old, 'page', response(10), [changeTags.products]);
    cache.store(old, 'vat', response(10), [changeTags.vatOf('DE')]);
    assert.equal(cache.begin(), old, 'nothing changed: the same generation');
    t.db.sqlite.prepare("UPDATE products SET name = 'x' WHERE sku = ?").run(SKU);
    const next = cache.begin();
    assert.notEqual(next, old);
    assert.equal(cache.get(next, 'page'), undefined, 'filed under products: dropped');
    assert.ok(cache.get(next, 'vat'), 'filed under the VAT rates only: kept');
    cache.store(old, 'late', response(10), []);
    assert.equal(cache.get(next, 'late'), undefined);
  });

  it('drops every entry when another connection writes the file', () => {
    const cache = createResponseCache(t.db, () => TEST_NOW, { maxBytes: 1_000_000, maxEntries: 100 });
    const generation = cache.begin();
    cache.store(generation, 'unrelated', response(10), ['nothing-logs-this']);
    const other = new Database(t.db.file);
    try {
      other.prepare("UPDATE carts SET updated_at = updated_at WHERE id = 'none'").run();
      other.prepare("INSERT INTO meta (key, value) VALUES ('touched', 'yes')").run();
    } finally {
      other.close();
    }
    cache.begin();
    assert.equal(cache.size().entries, 0);
  });

  it('keeps nothing with maxBytes 0', () => {
    const cache = createResponseCache(t.db, () => TEST_NOW, { maxBytes: 0, maxEntries: 100 });
    const generation = cache.begin();
    cache.store(generation, 'page', response(10), []);
    assert.equal(cache.get(generation, 'page'), undefined);
  });
});
