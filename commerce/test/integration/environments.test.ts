import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { SEED_SKUS } from '../../src/seed/seed-data.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { createTestIdentity } from '../support/identity.ts';
import { assertProblem } from '../support/problem.ts';

describe('live and test environments', () => {
  let live: TestApp;
  let test: TestApp;
  before(async () => {
    const identity = await createTestIdentity();
    live = await createTestApp({ environment: 'live', identity });
    test = await createTestApp({ environment: 'test', identity });
  });
  after(() => {
    live.close();
    test.close();
  });

  /** Reads one database file through its own read-only connection, not through the apps. */
  function queryFile<T>(file: string, sql: string, ...params: unknown[]): T[] {
    const direct = new Database(file, { readonly: true, fileMustExist: true });
    try {
      return direct.prepare(sql).all(...params) as T[];
    } finally {
      direct.close();
    }
  }

  it('use two different database files, each recording its own environment', () => {
    assert.notEqual(live.db.file, test.db.file);
    const recorded = (file: string) =>
      queryFile<{ value: string }>(file, "SELECT value FROM meta WHERE key = 'environment'").map(
        (r) => r.value,
      );
    assert.deepEqual(recorded(live.db.file), ['live']);
    assert.deepEqual(recorded(test.db.file), ['test']);
  });

  it('hold the test-only product in the test file only', () => {
    const countSku = (file: string) =>
      queryFile<{ n: number }>(
        file,
        'SELECT count(*) AS n FROM products WHERE sku = ?',
        SEED_SKUS.testOnly,
      )[0]?.n;
    assert.equal(countSku(test.db.file), 1);
    assert.equal(countSku(live.db.file), 0);
  });

  describe('a cart created in test', () => {
    it('is 404 in live and written to the test file only', async () => {
      const created = await test.post('/v2/carts', { channel: 'WEB_DE' });
      assert.equal(created.status, 201);
      const id = created.body.id;
      const added = await test.post(`/v2/carts/${id}/items`, { sku: SEED_SKUS.testOnly, qty: 1 });
      assert.equal(added.status, 200, added.text);
      assert.equal((await test.get(`/v2/carts/${id}`)).status, 200);
      assertProblem(await live.get(`/v2/carts/${id}`), 404, 'CART_NOT_FOUND');
      const cartsIn = (file: string) => queryFile(file, 'SELECT id FROM carts WHERE id = ?', id).length;
      const linesIn = (file: string) =>
        queryFile(file, 'SELECT 1 FROM cart_lines WHERE cart_id = ?', id).length;
      assert.deepEqual([cartsIn(test.db.file), linesIn(test.db.file)], [1, 1]);
      assert.deepEqual([cartsIn(live.db.file), linesIn(live.db.file)], [0, 0]);
    });
  });

  describe('the test-only product', () => {
    it('appears only in test', async () => {
      const headers = { 'X-Channel': 'WEB_DE' };
      const inTest = await test.get(`/v2/catalog/products/${SEED_SKUS.testOnly}`, { headers });
      assert.equal(inTest.status, 200);
      assert.match(inTest.body.data.name, /test environment only/);
      assertProblem(
        await live.get(`/v2/catalog/products/${SEED_SKUS.testOnly}`, { headers }),
        404,
        'PRODUCT_NOT_FOUND',
      );
      const listed = async (app: TestApp) =>
        (await app.get('/v2/catalog/products?limit=100', { headers })).body.data.map(
          (p: { sku: string }) => p.sku,
        );
      assert.ok((await listed(test)).includes(SEED_SKUS.testOnly));
      assert.ok(!(await listed(live)).includes(SEED_SKUS.testOnly));
    });
  });

  describe('an assertion for the test environment', () => {
    it('is refused by the live app with 403 and accepted by the test app', async () => {
      assertProblem(await live.get('/v2/channels', { environment: 'test' }), 403, 'ENVIRONMENT_MISMATCH');
      assertProblem(await test.get('/v2/channels', { environment: 'live' }), 403, 'ENVIRONMENT_MISMATCH');
      assert.equal((await test.get('/v2/channels', { environment: 'test' })).status, 200);
    });
  });
});
