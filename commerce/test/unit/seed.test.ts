import assert from 'node:assert/strict';
import { join } from 'node:path';
import { type CommerceDatabase, migrateDatabase, openDatabase } from '../../src/db/database.ts';
import { type Buyer, resolvePrice } from '../../src/pricing/resolve-price.ts';
import type { CustomerTier, PriceCandidate, PriceLevel } from '../../src/pricing/types.ts';
import { generateSeedRows, SEED_SKUS } from '../../src/seed/seed-data.ts';
import { clearDatabase, isDatabaseEmpty, seedDatabase } from '../../src/seed/seed-database.ts';
import type { PriceRowInsert } from '../../src/seed/seed-fixtures.ts';
import { createTempDir } from '../support/app.ts';

/** A seed price row as resolvePrice sees it once stored (column defaults applied). */
function toCandidate(row: PriceRowInsert): PriceCandidate {
  return {
    id: row.id,
    level: row.level as PriceLevel,
    tierCode: row.tierCode ?? null,
    customerId: row.customerId ?? null,
    minQuantity: row.minQuantity ?? 1,
    validFrom: row.validFrom ?? null,
    validTo: row.validTo ?? null,
    amount: row.amount,
  };
}

const TABLES = ['channels', 'vat_rates', 'customers', 'products', 'prices', 'stock'];

function dump(db: CommerceDatabase): Record<string, unknown[]> {
  return Object.fromEntries(
    TABLES.map((table) => [table, db.sqlite.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).all()]),
  );
}

describe('seed', () => {
  let temp: ReturnType<typeof createTempDir>;
  const open: CommerceDatabase[] = [];
  beforeEach(() => {
    temp = createTempDir();
  });
  afterEach(() => {
    for (const db of open.splice(0)) db.close();
    temp.remove();
  });

  function freshDb(name: string): CommerceDatabase {
    const db = openDatabase(join(temp.dir, name));
    open.push(db);
    migrateDatabase(db);
    return db;
  }

  describe('with two fresh databases', () => {
    it('writes identical rows', () => {
      const a = freshDb('a.db');
      const b = freshDb('b.db');
      seedDatabase(a, { environment: 'live' });
      seedDatabase(b, { environment: 'live' });
      const rowsA = dump(a);
      assert.ok((rowsA.products?.length ?? 0) >= 40);
      assert.deepEqual(rowsA, dump(b));
    });
    it('gives live and test the same rows except the test-only product', () => {
      const live = generateSeedRows({ environment: 'live' });
      const test = generateSeedRows({ environment: 'test' });
      const testOnly = test.products.filter((p) => !live.products.some((l) => l.id === p.id));
      assert.deepEqual(
        testOnly.map((p) => p.sku),
        [SEED_SKUS.testOnly],
      );
      assert.deepEqual(test.products.slice(0, live.products.length), live.products);
      assert.deepEqual(test.prices.slice(0, live.prices.length), live.prices);
      assert.deepEqual(test.customers, live.customers);
    });
  });

  describe('the generated data', () => {
    const rows = generateSeedRows({ environment: 'live' });
    const pricesOf = (sku: string) => {
      const id = rows.products.find((p) => p.sku === sku)?.id;
      return rows.prices.filter((p) => p.productId === id);
    };
    it('has ≥3 channels in 2 currencies, one of them net-priced', () => {
      assert.ok(rows.channels.length >= 3);
      assert.equal(new Set(rows.channels.map((c) => c.currency)).size, 2);
      assert.ok(rows.channels.some((c) => !c.pricesIncludeVat));
    });
    it('has every customer tier and VAT rates for DE and CH', () => {
      assert.deepEqual(new Set(rows.customers.map((c) => c.tier)), new Set(['retail', 'silver', 'gold']));
      const rate = (country: string, taxClass: string) =>
        rows.vatRates.find((v) => v.country === country && v.taxClass === taxClass)?.rateBp;
      assert.deepEqual([rate('DE', 'standard'), rate('DE', 'reduced')], [1900, 700]);
      assert.deepEqual([rate('CH', 'standard'), rate('CH', 'reduced')], [810, 260]);
    });
    it('has the documented special products', () => {
      const promo = pricesOf(SEED_SKUS.promotion).filter((p) => p.validTo);
      assert.equal(promo.length, 2);
      assert.ok(pricesOf(SEED_SKUS.quantityBreaks).some((p) => (p.minQuantity ?? 1) > 1));
      assert.ok(pricesOf(SEED_SKUS.tierAndAgreement).some((p) => p.level === 'agreement'));
      assert.ok(pricesOf(SEED_SKUS.tierAndAgreement).some((p) => p.level === 'tier'));
      assert.ok(!pricesOf(SEED_SKUS.notInWebCh).some((p) => p.channelCode === 'WEB_CH'));
      const stockOf = (sku: string) =>
        rows.stock.find((s) => s.productId === rows.products.find((p) => p.sku === sku)?.id);
      assert.deepEqual(stockOf(SEED_SKUS.outOfStock), { productId: 'prd_00006', onHand: 0, allocated: 0 });
    });
  });

  describe('the seeded prices', () => {
    const QUANTITIES = [1, 10, 50, 100];
    /** Inside the expired promotion, inside the current one, and at the tests' instant. */
    const INSTANTS = ['2024-03-01T00:00:00.000Z', '2025-06-01T00:00:00.000Z', '2026-06-01T12:00:00.000Z'];
    for (const environment of ['live', 'test'] as const) {
      it(`never charge a seeded customer more than an anonymous buyer (${environment})`, () => {
        const rows = generateSeedRows({ environment });
        const rowsOf = Map.groupBy(rows.prices, (p) => `${p.productId} ${p.channelCode}`);
        const dearer: string[] = [];
        let compared = 0;
        for (const product of rows.products) {
          for (const channel of rows.channels) {
            const candidates = (rowsOf.get(`${product.id} ${channel.code}`) ?? []).map(toCandidate);
            for (const at of INSTANTS.map((t) => new Date(t))) {
              for (const quantity of QUANTITIES) {
                const resolve = (buyer: Buyer) =>
                  resolvePrice({ candidates, buyer, quantity, at, channel, vatRateBp: 1900 });
                const anonymous = resolve({ customerId: null, tier: null });
                if (!anonymous) continue;
                for (const customer of rows.customers) {
                  const own = resolve({ customerId: customer.id, tier: customer.tier as CustomerTier });
                  compared++;
                  if (!own || own.amount > anonymous.amount) {
                    dearer.push(
                      `${product.sku} ${channel.code} ${customer.id} ×${quantity} at ${at.toISOString()}`,
                    );
                  }
                }
              }
            }
          }
        }
        assert.ok(compared > 1000, `${compared} comparisons`);
        assert.deepEqual(dearer, []);
      });
    }
    it('give tier prices the base quantity breaks wherever both exist', () => {
      const rows = generateSeedRows({ environment: 'live' });
      const product = rows.products.find((p) => p.sku === 'KG-00006');
      const breaks = (level: string, tierCode: string | null) =>
        rows.prices
          .filter(
            (p) =>
              p.productId === product?.id &&
              p.channelCode === 'WEB_DE' &&
              p.level === level &&
              (p.tierCode ?? null) === tierCode,
          )
          .map((p) => p.minQuantity ?? 1);
      assert.deepEqual(breaks('base', null), [1, 10, 50]);
      assert.deepEqual(breaks('tier', 'gold'), [1, 10, 50]);
      assert.deepEqual(breaks('tier', 'silver'), [1, 10, 50]);
    });
  });

  describe('with --products 10000', () => {
    it('seeds in one transaction within seconds', function () {
      this.timeout(30_000);
      const db = freshDb('big.db');
      const started = performance.now();
      const result = seedDatabase(db, { environment: 'live', products: 10_000 });
      const ms = performance.now() - started;
      assert.equal(result.products, 10_000);
      assert.equal(
        (db.sqlite.prepare('SELECT count(*) AS n FROM products').get() as { n: number }).n,
        10_000,
      );
      assert.ok(ms < 10_000, `seeding took ${ms} ms`);
    });
  });

  describe('clearDatabase', () => {
    it('empties a seeded database', () => {
      const db = freshDb('c.db');
      assert.equal(isDatabaseEmpty(db), true);
      seedDatabase(db, { environment: 'test', products: 5 });
      assert.equal(isDatabaseEmpty(db), false);
      clearDatabase(db);
      assert.equal(isDatabaseEmpty(db), true);
      assert.deepEqual(
        Object.values(dump(db)).map((r) => r.length),
        TABLES.map(() => 0),
      );
    });
  });
});
