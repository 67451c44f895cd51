import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../support/app.ts';

/** Queries counted at both levels: what drizzle runs, and every statement the SQLite driver runs. */
interface QueryCounts {
  drizzle: number;
  driver: number;
}

/** Counts queries through drizzle's logger and through better-sqlite3's `verbose` hook. */
function createQueryCounter() {
  const drizzle: string[] = [];
  const driver: string[] = [];
  return {
    queryLogger: { logQuery: (query: string) => void drizzle.push(query) },
    onStatement: (sql: string) => void driver.push(sql),
    /** Queries run by `work`, at both levels. */
    async count(work: () => unknown): Promise<QueryCounts> {
      const before = { drizzle: drizzle.length, driver: driver.length };
      await work();
      return { drizzle: drizzle.length - before.drizzle, driver: driver.length - before.driver };
    },
    /** Every statement the driver ran for `work`, its parameters bound (better-sqlite3's expanded SQL). */
    async statements(work: () => unknown): Promise<string[]> {
      const before = driver.length;
      await work();
      return driver.slice(before);
    },
  };
}

describe('fixed number of queries per catalogue page', () => {
  const counter = createQueryCounter();
  let t: TestApp;
  before(async () => {
    t = await createTestApp({
      queryLogger: counter.queryLogger,
      onStatement: counter.onStatement,
      products: 200,
      // The queries of computing a page are counted here; the cache's own are counted below.
      responseCache: { maxBytes: 0 },
    });
  });
  after(() => t.close());

  const rest = (limit: number, customer?: string) => async () => {
    const query = customer ? `&customer=${customer}` : '';
    const res = await t.get(`/v2/catalog/products?limit=${limit}${query}`, {
      headers: { 'X-Channel': 'WEB_DE' },
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.length, limit);
  };

  describe('the counter', () => {
    it('sees a raw driver query that bypasses drizzle', async () => {
      const counts = await counter.count(() => t.db.sqlite.prepare('SELECT 1').get());
      assert.deepEqual(counts, { drizzle: 0, driver: 1 });
    });
  });

  describe('GET /v2/catalog/products', () => {
    describe('with limit 5, 50 and 100', () => {
      it('runs the same small number of queries, drizzle or raw', async () => {
        const five = await counter.count(rest(5));
        const fifty = await counter.count(rest(50));
        const hundred = await counter.count(rest(100));
        assert.deepEqual(fifty, five);
        assert.deepEqual(hundred, five);
        assert.ok(five.driver >= 3 && five.driver <= 5, `${five.driver} statements`);
        // The context, the page and its prices run on prepared better-sqlite3 statements
        // (sqlite-catalog-store.ts); only a customer's own lookup goes through drizzle.
        assert.equal(five.drizzle, 0, 'every statement of an anonymous page bypasses drizzle');
      });
    });
    describe('with a customer', () => {
      it('adds exactly one query (the customer), whatever the page size', async () => {
        const anonymous = await counter.count(rest(5));
        const five = await counter.count(rest(5, 'cus_0003'));
        const fifty = await counter.count(rest(50, 'cus_0003'));
        assert.deepEqual(fifty, five);
        assert.deepEqual(five, { drizzle: anonymous.drizzle + 1, driver: anonymous.driver + 1 });
      });
    });
  });

  describe('GET /v2/catalog/products with q', () => {
    /** The query plan of the page statement the store ran for one search. */
    const pagePlanOf = async (q: string) => {
      const statements = await counter.statements(async () => {
        const res = await t.get(`/v2/catalog/products?q=${q}`, { headers: { 'X-Channel': 'WEB_DE' } });
        assert.equal(res.status, 200, res.text);
        assert.ok(res.body.data.length > 0, `q=${q} finds products`);
      });
      const page = statements.filter((sql) => /FROM products p\b/.test(sql));
      assert.equal(page.length, 1, statements.join('\n'));
      return t.db.sqlite
        .prepare(`EXPLAIN QUERY PLAN ${page[0]}`)
        .all()
        .map((row) => (row as { detail: string }).detail)
        .join('\n');
    };
    it('answers three or more characters from the trigram index, not a scan of products', async () => {
      const plan = await pagePlanOf('lamp');
      assert.match(plan, /product_search VIRTUAL TABLE/);
      assert.doesNotMatch(plan, /SCAN p\b/, plan);
    });
    it('answers one or two characters with a scan (the index cannot see them)', async () => {
      const plan = await pagePlanOf('la');
      assert.doesNotMatch(plan, /product_search/);
    });
  });

  describe('POST /v2/graphql', () => {
    const graphql = (first: number) => async () => {
      const query = `{ products(channel: WEB_DE, customer: "cus_0003", first: ${first}) {
        sku price { gross source } gold: price(tier: "gold", quantity: 10) { gross } stock { available } } }`;
      const res = await t.post('/v2/graphql', { query });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.data.products.length, first);
    };
    describe('with first 1, 5 and 50, prices resolved twice per product', () => {
      it('runs the same number of queries as the REST page (the schema is built with the app)', async () => {
        const one = await counter.count(graphql(1));
        const five = await counter.count(graphql(5));
        const fifty = await counter.count(graphql(50));
        assert.deepEqual(five, one);
        assert.deepEqual(fifty, one);
        assert.deepEqual(one, await counter.count(rest(5, 'cus_0003')));
      });
    });
  });

  describe('PATCH /v2/carts/{id}/items/{sku}', () => {
    /** A cart of `skus`, one unit each, and the statements of setting the first line to `qty`. */
    const changeFirstLine = async (skus: string[], qty: number) => {
      const cart = await t.post('/v2/carts', { channel: 'WEB_DE' });
      assert.equal(cart.status, 201, cart.text);
      for (const sku of skus) {
        const res = await t.post(`/v2/carts/${cart.body.id}/items`, { sku, qty: 1 });
        assert.equal(res.status, 200, res.text);
      }
      return counter.statements(async () => {
        const res = await t.patch(`/v2/carts/${cart.body.id}/items/${skus[0]}`, { qty });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.lines[0].qty, qty);
      });
    };
    it('updates the line and the cart in one transaction, in as many statements for 1 line as for 3', async () => {
      const one = await changeFirstLine(['KG-00002'], 3);
      const three = await changeFirstLine(['KG-00005', 'KG-00002', 'KG-00010'], 2);
      assert.equal(three.length, one.length, three.join('\n'));
      assert.equal(one[0], 'BEGIN IMMEDIATE');
      assert.equal(one.at(-1), 'COMMIT');
      const writes = one.filter((sql) => /^\s*(INSERT|UPDATE|DELETE|REPLACE)\b/i.test(sql));
      // An upsert would draw a new AUTOINCREMENT id and rewrite sqlite_sequence on every change.
      assert.deepEqual(
        writes.map((sql) =>
          /^\s*(\w+)\s+(?:INTO\s+)?["`]?(\w+)/i.exec(sql)?.slice(1, 3).join(' ').toUpperCase(),
        ),
        ['UPDATE CART_LINES', 'UPDATE CARTS'],
        writes.join('\n'),
      );
      // A sort per read of a cart's few lines costs more than the read.
      assert.ok(!one.some((sql) => /ORDER BY/i.test(sql)), one.join('\n'));
    });
  });

  describe('a repeated request, with the response cache on', () => {
    const cached = createQueryCounter();
    let c: TestApp;
    before(async () => {
      c = await createTestApp({ onStatement: cached.onStatement, products: 200 });
    });
    after(() => c.close());
    const page = async () => {
      const res = await c.get('/v2/catalog/products?limit=50', { headers: { 'X-Channel': 'WEB_DE' } });
      assert.equal(res.status, 200);
      return res.body;
    };
    it('runs one statement (the data version) and answers the same page', async () => {
      const first = await page();
      const statements = await cached.statements(async () => assert.deepEqual(await page(), first));
      assert.equal(statements.length, 1, statements.join('\n'));
      assert.match(statements[0] ?? '', /pragma_data_version/);
    });
  });
});
