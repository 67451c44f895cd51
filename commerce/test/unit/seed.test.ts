import assert from 'node:assert/strict';
import { join } from 'node:path';
import { type CommerceDatabase, migrateDatabase, openDatabase } from '../../src/db/database.ts';
import { generateSeedRows, SEED_SKUS } from '../../src/seed/seed-data.ts';
import { clearDatabase, isDatabaseEmpty, seedDatabase } from '../../src/seed/seed-database.ts';
import { createTempDir } from '../support/app.ts';

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
