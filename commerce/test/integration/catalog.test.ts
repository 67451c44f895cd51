import assert from 'node:assert/strict';
import { generateSeedRows, SEED_PROMOTIONS, SEED_SKUS } from '../../src/seed/seed-data.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { assertProblem } from '../support/problem.ts';

const SEED = generateSeedRows({ environment: 'live' });
const WEB_DE = { headers: { 'X-Channel': 'WEB_DE' } };

/** The seed row amount of a product's price in a channel matching `where`. */
function seedAmount(sku: string, channelCode: string, where: (p: (typeof SEED.prices)[number]) => boolean) {
  const id = SEED.products.find((p) => p.sku === sku)?.id;
  const row = SEED.prices.find((p) => p.productId === id && p.channelCode === channelCode && where(p));
  assert.ok(row, `seed price for ${sku} in ${channelCode}`);
  return row.amount;
}

const undatedBase = (p: (typeof SEED.prices)[number]) =>
  p.level === 'base' && (p.minQuantity ?? 1) === 1 && !p.validFrom && !p.validTo;

describe('catalogue routes', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  describe('GET /v2/catalog/products', () => {
    describe('with a gross-priced channel', () => {
      it('responds with the page, prices in integer minor units and stock', async () => {
        const res = await t.get('/v2/catalog/products?limit=5', WEB_DE);
        assert.equal(res.status, 200);
        assert.equal(res.body.channel, 'WEB_DE');
        assert.equal(res.body.currency, 'EUR');
        assert.equal(res.body.pricesIncludeVat, true);
        assert.equal(res.body.data.length, 5);
        assert.equal(typeof res.body.nextCursor, 'string');
        for (const item of res.body.data) {
          assert.deepEqual(Object.keys(item).sort(), [
            'id',
            'images',
            'name',
            'price',
            'sku',
            'stock',
            'taxClass',
          ]);
          const { net, vat, gross } = item.price;
          for (const amount of [net, vat, gross]) assert.ok(Number.isInteger(amount));
          assert.equal(net + vat, gross);
          assert.equal(item.price.amount, gross);
          assert.equal(item.price.currency, 'EUR');
          assert.equal(typeof item.stock.available, 'number');
        }
        const second = res.body.data[1];
        assert.equal(second.sku, 'KG-00002');
        assert.equal(second.price.gross, seedAmount('KG-00002', 'WEB_DE', undatedBase));
        assert.equal(second.price.vatRate, 0.19);
        assert.equal(second.price.source, 'base');
      });
    });

    describe('with a net-priced channel', () => {
      it('responds with the stored amount as net and VAT added', async () => {
        const res = await t.get('/v2/catalog/products?limit=2', { headers: { 'X-Channel': 'B2B_DE' } });
        assert.equal(res.status, 200);
        assert.equal(res.body.pricesIncludeVat, false);
        const item = res.body.data[1];
        assert.equal(item.price.amount, item.price.net);
        assert.equal(item.price.net, seedAmount('KG-00002', 'B2B_DE', undatedBase));
        assert.equal(item.price.gross, item.price.net + item.price.vat);
      });
    });

    describe('with cursor pagination', () => {
      it('walks every sellable product once, in SKU order', async () => {
        const skus: string[] = [];
        let path = '/v2/catalog/products?limit=7';
        for (let pages = 0; pages < 20; pages++) {
          const res = await t.get(path, WEB_DE);
          assert.equal(res.status, 200);
          skus.push(...res.body.data.map((p: { sku: string }) => p.sku));
          if (res.body.nextCursor === null) break;
          path = `/v2/catalog/products?limit=7&cursor=${res.body.nextCursor}`;
        }
        const all = await t.get('/v2/catalog/products?limit=100', WEB_DE);
        assert.deepEqual(
          skus,
          all.body.data.map((p: { sku: string }) => p.sku),
        );
        assert.equal(new Set(skus).size, skus.length);
        assert.deepEqual([...skus].sort(), skus);
        assert.equal(skus.length, SEED.products.length);
        assert.equal(all.body.nextCursor, null);
      });
    });

    describe('with a channel a product is missing from', () => {
      it('omits the product', async () => {
        const res = await t.get('/v2/catalog/products?limit=100', { headers: { 'X-Channel': 'WEB_CH' } });
        assert.equal(res.status, 200);
        assert.equal(res.body.currency, 'CHF');
        const skus = res.body.data.map((p: { sku: string }) => p.sku);
        assert.ok(!skus.includes(SEED_SKUS.notInWebCh));
        assert.ok(skus.includes('KG-00004'));
        assert.equal(res.body.data[0].price.vatRateBp, 810);
      });
    });

    describe('with inStock', () => {
      it('true lists only available products, false only sold-out ones', async () => {
        const inStock = await t.get('/v2/catalog/products?limit=100&inStock=true', WEB_DE);
        const soldOut = await t.get('/v2/catalog/products?limit=100&inStock=false', WEB_DE);
        assert.ok(inStock.body.data.every((p: { stock: { available: number } }) => p.stock.available > 0));
        assert.ok(soldOut.body.data.every((p: { stock: { available: number } }) => p.stock.available === 0));
        const soldOutSkus = soldOut.body.data.map((p: { sku: string }) => p.sku);
        assert.ok(soldOutSkus.includes(SEED_SKUS.outOfStock));
        assert.ok(soldOutSkus.includes(SEED_SKUS.fullyAllocated));
        assert.equal(inStock.body.data.length + soldOut.body.data.length, SEED.products.length);
      });
    });

    describe('with a customer', () => {
      it('applies their agreement over their tier', async () => {
        const res = await t.get('/v2/catalog/products?limit=5&customer=cus_0003', WEB_DE);
        assert.equal(res.status, 200);
        assert.equal(res.body.customer, 'cus_0003');
        const item = res.body.data.find((p: { sku: string }) => p.sku === SEED_SKUS.tierAndAgreement);
        assert.equal(item.price.source, 'agreement');
        assert.equal(
          item.price.gross,
          seedAmount(SEED_SKUS.tierAndAgreement, 'WEB_DE', (p) => p.level === 'agreement'),
        );
      });
      it('applies the tier price for a same-tier customer without an agreement', async () => {
        const res = await t.get('/v2/catalog/products?limit=5&customer=cus_0004', WEB_DE);
        const item = res.body.data.find((p: { sku: string }) => p.sku === SEED_SKUS.tierAndAgreement);
        assert.equal(item.price.source, 'tier');
        assert.equal(
          item.price.gross,
          seedAmount(SEED_SKUS.tierAndAgreement, 'WEB_DE', (p) => p.tierCode === 'gold'),
        );
      });
    });

    describe('with a validity window', () => {
      const promoOf = async (at: string) => {
        const app = await createTestApp({ clock: () => new Date(at) });
        try {
          const res = await app.get(`/v2/catalog/products/${SEED_SKUS.promotion}`, WEB_DE);
          return res.body.data.price.gross as number;
        } finally {
          app.close();
        }
      };
      it('uses the current promotion now, the expired one only inside its window', async () => {
        const expired = seedAmount(
          SEED_SKUS.promotion,
          'WEB_DE',
          (p) => p.validTo === SEED_PROMOTIONS.expired.validTo,
        );
        const current = seedAmount(
          SEED_SKUS.promotion,
          'WEB_DE',
          (p) => p.validTo === SEED_PROMOTIONS.current.validTo,
        );
        const regular = seedAmount(SEED_SKUS.promotion, 'WEB_DE', undatedBase);
        assert.equal(await promoOf('2026-06-01T00:00:00.000Z'), current);
        assert.equal(await promoOf('2024-03-01T00:00:00.000Z'), expired);
        assert.equal(await promoOf('2024-12-01T00:00:00.000Z'), regular);
      });
    });

    describe('without X-Channel', () => {
      it('responds 422 VALIDATION_FAILED pointing at the header', async () => {
        const body = assertProblem(await t.get('/v2/catalog/products'), 422, 'VALIDATION_FAILED');
        assert.deepEqual(
          (body.errors as Array<{ pointer: string }>).map((e) => e.pointer),
          ['/headers/x-channel'],
        );
      });
    });

    describe('with an unknown channel', () => {
      it('responds 422 UNKNOWN_CHANNEL', async () => {
        assertProblem(
          await t.get('/v2/catalog/products', { headers: { 'X-Channel': 'WEB_XX' } }),
          422,
          'UNKNOWN_CHANNEL',
        );
      });
    });

    describe('with an unknown customer', () => {
      it('responds 422 UNKNOWN_CUSTOMER', async () => {
        assertProblem(await t.get('/v2/catalog/products?customer=cus_nope', WEB_DE), 422, 'UNKNOWN_CUSTOMER');
      });
    });

    describe('with q', () => {
      /** SKUs of every page of a search, following the cursor. */
      async function searchAll(query: string): Promise<string[]> {
        const skus: string[] = [];
        let cursor: string | null = null;
        do {
          const after: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
          const res = await t.get(`/v2/catalog/products?limit=100&${query}${after}`, WEB_DE);
          assert.equal(res.status, 200, res.text);
          skus.push(...res.body.data.map((item: { sku: string }) => item.sku));
          cursor = res.body.nextCursor;
        } while (cursor);
        return skus;
      }
      /** What a search must find: sellable in WEB_DE and containing the text, any case. */
      async function expected(text: string, inStock: boolean | null = null): Promise<string[]> {
        const all = await searchAll(inStock === null ? '' : `inStock=${inStock}`);
        const names = new Map(SEED.products.map((p) => [p.sku, p.name]));
        const needle = text.toLowerCase();
        return all.filter(
          (sku) =>
            sku.toLowerCase().includes(needle) || String(names.get(sku)).toLowerCase().includes(needle),
        );
      }

      it('finds products by a word of their name, in any case, across pages', async () => {
        const found = await searchAll('q=desk%20LAMP');
        assert.ok(found.length > 1, 'the seed has several desk lamps');
        assert.deepEqual(found, await expected('desk lamp'));
      });
      it('finds a product by its SKU', async () => {
        assert.deepEqual(await searchAll(`q=${SEED_SKUS.quantityBreaks}`), [SEED_SKUS.quantityBreaks]);
      });
      it('answers texts shorter than three characters too', async () => {
        const found = await searchAll('q=k');
        assert.deepEqual(found, await expected('k'));
        assert.ok(found.length > 0);
      });
      it('combines with inStock', async () => {
        const found = await searchAll('q=oak&inStock=true');
        assert.deepEqual(found, await expected('oak', true));
      });
      it('treats quotes, % and _ as plain text', async () => {
        for (const q of ['%22lamp', '%25', '_', 'a%22%20OR%20%22b']) {
          const res = await t.get(`/v2/catalog/products?q=${q}`, WEB_DE);
          assert.equal(res.status, 200, res.text);
          assert.deepEqual(res.body.data, [], q);
        }
      });
      it('uses the trigram index rather than scanning products', () => {
        const plan = t.db.sqlite
          .prepare(
            'EXPLAIN QUERY PLAN SELECT rowid FROM products WHERE rowid IN (SELECT rowid FROM product_search WHERE product_search MATCH \'"lamp"\')',
          )
          .all()
          .map((row) => (row as { detail: string }).detail)
          .join('\n');
        assert.match(plan, /product_search VIRTUAL TABLE/);
        assert.doesNotMatch(plan, /SCAN products/);
      });
      it('finds a product renamed after the index was built', async () => {
        const product = SEED.products.find((p) => p.sku === SEED_SKUS.lowStock);
        const rename = t.db.sqlite.prepare('UPDATE products SET name = ? WHERE id = ?');
        rename.run('Zeppelin Teapot', product?.id);
        try {
          assert.deepEqual(await searchAll('q=zeppelin'), [SEED_SKUS.lowStock]);
          assert.ok(
            !(await searchAll(`q=${encodeURIComponent(String(product?.name))}`)).includes(product?.sku ?? ''),
          );
        } finally {
          rename.run(product?.name, product?.id);
        }
      });
    });

    describe('with bad query parameters', () => {
      for (const query of [
        'limit=0',
        'limit=101',
        'limit=ten',
        'inStock=yes',
        'q=',
        `q=${'x'.repeat(101)}`,
      ]) {
        it(`responds 422 VALIDATION_FAILED for ${query}`, async () => {
          assertProblem(await t.get(`/v2/catalog/products?${query}`, WEB_DE), 422, 'VALIDATION_FAILED');
        });
      }
      it('responds 422 INVALID_CURSOR for a forged cursor', async () => {
        assertProblem(await t.get('/v2/catalog/products?cursor=zzz', WEB_DE), 422, 'INVALID_CURSOR');
      });
    });
  });

  describe('GET /v2/catalog/products/{sku}', () => {
    describe('with a product sold in the channel', () => {
      it('responds with the same item shape', async () => {
        const one = await t.get('/v2/catalog/products/KG-00002', WEB_DE);
        const list = await t.get('/v2/catalog/products?limit=2', WEB_DE);
        assert.equal(one.status, 200);
        assert.deepEqual(one.body.data, list.body.data[1]);
        assert.equal(one.body.channel, 'WEB_DE');
      });
    });
    describe('with an unknown SKU', () => {
      it('responds 404 PRODUCT_NOT_FOUND', async () => {
        assertProblem(await t.get('/v2/catalog/products/NOPE-1', WEB_DE), 404, 'PRODUCT_NOT_FOUND');
      });
    });
    describe('with a product not sold in the channel', () => {
      it('responds 404 PRODUCT_NOT_FOUND', async () => {
        const res = await t.get(`/v2/catalog/products/${SEED_SKUS.notInWebCh}`, {
          headers: { 'X-Channel': 'WEB_CH' },
        });
        const body = assertProblem(res, 404, 'PRODUCT_NOT_FOUND');
        assert.match(String(body.detail), /not sold in channel WEB_CH/);
      });
    });
    describe('without X-Channel', () => {
      it('responds 422 VALIDATION_FAILED', async () => {
        assertProblem(await t.get('/v2/catalog/products/KG-00002'), 422, 'VALIDATION_FAILED');
      });
    });
  });

  describe('GET /v2/channels', () => {
    it('responds with every channel', async () => {
      const res = await t.get('/v2/channels');
      assert.equal(res.status, 200);
      assert.deepEqual(
        res.body.data.map((c: { code: string }) => c.code),
        ['B2B_DE', 'WEB_CH', 'WEB_DE'],
      );
      assert.deepEqual(res.body.data[0], {
        code: 'B2B_DE',
        name: 'B2B Germany (net prices)',
        currency: 'EUR',
        taxCountry: 'DE',
        pricesIncludeVat: false,
      });
    });
  });
});
