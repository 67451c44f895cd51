import assert from 'node:assert/strict';
import request from 'supertest';
import { generateSeedRows, SEED_SKUS } from '../../src/seed/seed-data.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { assertProblem } from '../support/problem.ts';

const SEED = generateSeedRows({ environment: 'live' });

function seedAmount(
  sku: string,
  channel: string,
  where: (p: (typeof SEED.prices)[number]) => boolean,
): number {
  const id = SEED.products.find((p) => p.sku === sku)?.id;
  const row = SEED.prices.find((p) => p.productId === id && p.channelCode === channel && where(p));
  assert.ok(row);
  return row.amount;
}

describe('GraphQL /v2/graphql', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const query = (source: string, variables?: Record<string, unknown>) =>
    t.post(
      '/v2/graphql',
      { query: source, variables },
      { headers: { Accept: 'application/graphql-response+json' } },
    );

  describe('requests GraphQL cannot run', () => {
    it('answers a POST without `query` with 400 MALFORMED_REQUEST as problem+json', async () => {
      assertProblem(await t.post('/v2/graphql', { variables: {} }), 400, 'MALFORMED_REQUEST');
      assertProblem(await t.post('/v2/graphql', { query: 42 }), 400, 'MALFORMED_REQUEST');
      assertProblem(await t.post('/v2/graphql', '[]'), 400, 'MALFORMED_REQUEST');
      assertProblem(await t.get('/v2/graphql'), 400, 'MALFORMED_REQUEST');
    });

    it('answers a body that is not plain application/json with 415 UNSUPPORTED_MEDIA_TYPE as problem+json', async () => {
      for (const type of ['application/json;;;', 'text/plain', 'application/json; charset=latin1']) {
        const identity = await t.identity.assert({
          environment: t.environment,
          method: 'POST',
          path: '/v2/graphql',
        });
        const res = await request(t.app)
          .post('/v2/graphql')
          .set('X-Keygate-Identity', identity)
          .set('Content-Type', type)
          .send('{"query":"{ __typename }"}');
        assertProblem(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
      }
    });

    it('answers other methods with 405 METHOD_NOT_ALLOWED, Allow: GET, POST and a problem+json type (HEAD too)', async () => {
      const deleted = await t.delete('/v2/graphql');
      assertProblem(deleted, 405, 'METHOD_NOT_ALLOWED');
      assert.equal(deleted.headers.allow, 'GET, POST');
      const head = await request(t.app)
        .head('/v2/graphql')
        .set(
          'X-Keygate-Identity',
          await t.identity.assert({ environment: t.environment, method: 'HEAD', path: '/v2/graphql' }),
        );
      assert.equal(head.status, 405);
      assert.equal(head.headers.allow, 'GET, POST');
      assert.match(String(head.headers['content-type']), /^application\/problem\+json/);
    });
  });

  describe('POST products(channel: WEB_DE)', () => {
    it('responds with products, integer prices and stock, like REST', async () => {
      const res = await query(`{ products(channel: WEB_DE, first: 3) {
        id sku name price { amount currency net vat gross source } stock { available } } }`);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.errors, undefined);
      const rest = await t.get('/v2/catalog/products?limit=3', { headers: { 'X-Channel': 'WEB_DE' } });
      const products = res.body.data.products;
      assert.equal(products.length, 3);
      products.forEach((p: Record<string, unknown>, i: number) => {
        const r = rest.body.data[i];
        assert.deepEqual(p, {
          id: r.id,
          sku: r.sku,
          name: r.name,
          price: {
            amount: r.price.amount,
            currency: 'EUR',
            net: r.price.net,
            vat: r.price.vat,
            gross: r.price.gross,
            source: r.price.source,
          },
          stock: { available: r.stock.available },
        });
      });
    });
  });

  describe('products(q:)', () => {
    it('finds the same products as the REST search', async () => {
      const res = await query('{ products(channel: WEB_DE, q: "Desk lamp", first: 100) { sku } }');
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.errors, undefined);
      const rest = await t.get('/v2/catalog/products?q=Desk%20lamp&limit=100', {
        headers: { 'X-Channel': 'WEB_DE' },
      });
      const skus = res.body.data.products.map((p: { sku: string }) => p.sku);
      assert.ok(skus.length > 0);
      assert.deepEqual(
        skus,
        rest.body.data.map((p: { sku: string }) => p.sku),
      );
    });
    it('refuses a text longer than 100 characters with VALIDATION_FAILED', async () => {
      const res = await query(`{ products(channel: WEB_DE, q: "${'x'.repeat(101)}") { sku } }`);
      assert.equal(res.body.errors?.[0]?.extensions?.code, 'VALIDATION_FAILED');
    });
  });

  describe('GET with the query in the URL', () => {
    it('responds with the same data', async () => {
      const source = '{ products(channel: WEB_CH, first: 1) { sku price { currency } } }';
      const res = await t.get(`/v2/graphql?query=${encodeURIComponent(source)}`);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.data.products, [{ sku: 'KG-00001', price: { currency: 'CHF' } }]);
    });
  });

  describe('the Channel enum', () => {
    it('has one value per channel in the database', async () => {
      const res = await query('{ __type(name: "Channel") { kind enumValues { name } } }');
      assert.equal(res.body.data.__type.kind, 'ENUM');
      assert.deepEqual(
        res.body.data.__type.enumValues.map((v: { name: string }) => v.name),
        ['B2B_DE', 'WEB_CH', 'WEB_DE'],
      );
    });
    it('refuses an unknown channel and a string in place of the enum', async () => {
      for (const arg of ['WEB_XX', '"WEB_DE"']) {
        const res = await query(`{ products(channel: ${arg}) { sku } }`);
        assert.equal(res.status, 400);
        assert.equal(res.body.data, undefined);
        assert.ok(res.body.errors.length > 0);
      }
    });
    it('is read from the database when the app is created, not on the first request', async () => {
      const fresh = await createTestApp();
      try {
        fresh.db.sqlite
          .prepare("INSERT INTO channels VALUES ('WEB_AT', 'Web shop Austria', 'EUR', 'AT', 1)")
          .run();
        const res = await fresh.post('/v2/graphql', {
          query: '{ __type(name: "Channel") { description enumValues { name } } }',
        });
        assert.deepEqual(
          res.body.data.__type.enumValues.map((v: { name: string }) => v.name),
          ['B2B_DE', 'WEB_CH', 'WEB_DE'],
        );
        assert.match(res.body.data.__type.description, /read from the database when the service starts/);
      } finally {
        fresh.close();
      }
    });
    it('accepts the channel as a variable', async () => {
      const res = await query('query($c: Channel!) { products(channel: $c, first: 1) { sku } }', {
        c: 'B2B_DE',
      });
      assert.deepEqual(res.body.data.products, [{ sku: 'KG-00001' }]);
    });
  });

  describe('price(tier, quantity)', () => {
    it('applies the tier argument without a customer', async () => {
      const res = await query(`{ products(channel: WEB_DE, first: 3) {
        sku base: price { gross source } gold: price(tier: "gold") { gross source } } }`);
      const item = res.body.data.products.find((p: { sku: string }) => p.sku === SEED_SKUS.tierAndAgreement);
      assert.equal(item.base.source, 'base');
      assert.deepEqual(item.gold, {
        gross: seedAmount(SEED_SKUS.tierAndAgreement, 'WEB_DE', (p) => p.tierCode === 'gold'),
        source: 'tier',
      });
    });
    it('applies quantity breaks', async () => {
      const res = await query(`{ products(channel: WEB_DE, first: 2) { sku
        one: price(quantity: 1) { gross } ten: price(quantity: 10) { gross } fifty: price(quantity: 50) { gross } } }`);
      const item = res.body.data.products[1];
      assert.equal(item.sku, SEED_SKUS.quantityBreaks);
      assert.deepEqual(
        [item.one.gross, item.ten.gross, item.fifty.gross],
        [1, 10, 50].map((q) =>
          seedAmount(
            SEED_SKUS.quantityBreaks,
            'WEB_DE',
            (p) => p.level === 'base' && (p.minQuantity ?? 1) === q,
          ),
        ),
      );
    });
    it('applies the customer’s agreement', async () => {
      const res = await query(
        `{ products(channel: B2B_DE, customer: "cus_0003", first: 4) { sku price { net source } } }`,
      );
      const item = res.body.data.products.find((p: { sku: string }) => p.sku === SEED_SKUS.agreement);
      assert.deepEqual(item.price, {
        net: seedAmount(SEED_SKUS.agreement, 'B2B_DE', (p) => p.level === 'agreement'),
        source: 'agreement',
      });
    });
    it('answers an unknown tier or a quantity below 1 with a coded error', async () => {
      for (const args of ['tier: "platinum"', 'quantity: 0']) {
        const res = await query(`{ products(channel: WEB_DE, first: 1) { sku price(${args}) { gross } } }`);
        assert.equal(res.body.errors[0].extensions.code, 'VALIDATION_FAILED');
        assert.equal(res.body.data.products[0].price, null);
      }
    });
    it('bounds quantity to 1..999 like a cart line, with a clear error above', async () => {
      const res = await query(`{ products(channel: WEB_DE, first: 1) {
        max: price(quantity: 999) { gross } over: price(quantity: 1000) { gross } } }`);
      assert.equal(typeof res.body.data.products[0].max.gross, 'number');
      assert.equal(res.body.data.products[0].over, null);
      assert.equal(res.body.errors.length, 1);
      assert.deepEqual(res.body.errors[0].path, ['products', 0, 'over']);
      assert.equal(res.body.errors[0].extensions.code, 'VALIDATION_FAILED');
      assert.equal(res.body.errors[0].message, 'quantity must be an integer 1..999.');
    });
  });

  describe('products arguments', () => {
    it('pages with first/after using each product’s cursor', async () => {
      const first = await query('{ products(channel: WEB_DE, first: 2) { sku cursor } }');
      const [, last] = first.body.data.products;
      const next = await query(`{ products(channel: WEB_DE, first: 2, after: "${last.cursor}") { sku } }`);
      assert.deepEqual(
        next.body.data.products.map((p: { sku: string }) => p.sku),
        ['KG-00003', 'KG-00004'],
      );
    });
    it('filters by inStock', async () => {
      const res = await query(
        '{ products(channel: WEB_DE, inStock: false, first: 100) { stock { available } } }',
      );
      assert.ok(res.body.data.products.length > 0);
      assert.ok(
        res.body.data.products.every((p: { stock: { available: number } }) => p.stock.available === 0),
      );
    });
    it('answers an unknown customer with UNKNOWN_CUSTOMER', async () => {
      const res = await query('{ products(channel: WEB_DE, customer: "cus_nope") { sku } }');
      assert.equal(res.body.data, null);
      assert.equal(res.body.errors[0].extensions.code, 'UNKNOWN_CUSTOMER');
    });
    it('answers first outside 1..100 and a forged cursor with coded errors', async () => {
      for (const [args, code] of [
        ['first: 0', 'VALIDATION_FAILED'],
        ['first: 101', 'VALIDATION_FAILED'],
        ['after: "zzz"', 'INVALID_CURSOR'],
      ]) {
        const res = await query(`{ products(channel: WEB_DE, ${args}) { sku } }`);
        assert.equal(res.body.errors[0].extensions.code, code, args);
      }
    });
  });

  describe('the schema', () => {
    it('documents money as integer minor units', async () => {
      const res = await query('{ __type(name: "Price") { description fields { name description } } }');
      assert.match(res.body.data.__type.description, /minor units/);
      for (const name of ['amount', 'net', 'vat', 'gross']) {
        const field = res.body.data.__type.fields.find((f: { name: string }) => f.name === name);
        assert.match(field.description, /minor units/, name);
      }
    });
  });

  describe('without article:r', () => {
    it('responds 403', async () => {
      const res = await t.post('/v2/graphql', { query: '{ __typename }' }, { scopes: ['order:rw'] });
      assert.equal(res.status, 403);
    });
  });
});
