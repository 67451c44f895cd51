import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../support/app.ts';

/** Counts every query drizzle runs, through its logger. */
function createQueryCounter() {
  const queries: string[] = [];
  return {
    queryLogger: { logQuery: (query: string) => void queries.push(query) },
    /** Queries run by `work`. */
    async count(work: () => Promise<unknown>): Promise<number> {
      const before = queries.length;
      await work();
      return queries.length - before;
    },
  };
}

describe('fixed number of queries per catalogue page', () => {
  const counter = createQueryCounter();
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ queryLogger: counter.queryLogger, products: 200 });
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

  describe('GET /v2/catalog/products', () => {
    describe('with limit 5 and limit 50', () => {
      it('runs the same small number of queries', async () => {
        const five = await counter.count(rest(5));
        const fifty = await counter.count(rest(50));
        const hundred = await counter.count(rest(100));
        assert.equal(five, fifty);
        assert.equal(fifty, hundred);
        assert.ok(five >= 3 && five <= 5, `${five} queries`);
      });
    });
    describe('with a customer', () => {
      it('adds exactly one query (the customer), whatever the page size', async () => {
        const anonymous = await counter.count(rest(5));
        const five = await counter.count(rest(5, 'cus_0003'));
        const fifty = await counter.count(rest(50, 'cus_0003'));
        assert.equal(five, fifty);
        assert.equal(five, anonymous + 1);
      });
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
    describe('with first 5 and first 50, prices resolved twice per product', () => {
      it('runs the same number of queries as the REST page', async () => {
        await counter.count(graphql(1)); // builds the schema (reads the channels) once
        const five = await counter.count(graphql(5));
        const fifty = await counter.count(graphql(50));
        assert.equal(five, fifty);
        assert.equal(five, await counter.count(rest(5, 'cus_0003')));
      });
    });
  });
});
