import assert from 'node:assert/strict';
import { join } from 'node:path';
import { migrateDatabase, openDatabase } from '../../src/db/database.ts';
import { seedDatabase } from '../../src/seed/seed-database.ts';
import { createSqliteStockStore } from '../../src/stock/sqlite-stock-store.ts';
import { createTempDir } from '../support/app.ts';

describe('the SQLite stock store', () => {
  describe('with two connections to one file (as two processes would have)', () => {
    it('never allocates more than is available, even after a stale read', () => {
      const temp = createTempDir();
      const file = join(temp.dir, 'c.db');
      const a = openDatabase(file);
      migrateDatabase(a);
      seedDatabase(a, { environment: 'live', products: 3 });
      a.sqlite.exec("UPDATE stock SET on_hand = 5, allocated = 0 WHERE product_id = 'prd_00002'");
      const b = openDatabase(file);
      try {
        const storeA = createSqliteStockStore(a);
        const storeB = createSqliteStockStore(b);
        const seenByA = storeA.findByProductId('prd_00002');
        assert.deepEqual([seenByA?.onHand, seenByA?.allocated], [5, 0]);
        assert.equal(storeB.allocate('prd_00002', 5), true);
        assert.equal(
          storeA.allocate('prd_00002', 1),
          false,
          'A believed 5 were available; the UPDATE knows better',
        );
        assert.equal(storeB.release('prd_00002', 6), false, 'never below zero allocated');
        assert.equal(storeA.consume('prd_00002', 2), true);
        assert.deepEqual(
          [storeB.findByProductId('prd_00002')?.onHand, storeB.findByProductId('prd_00002')?.allocated],
          [3, 3],
        );
        assert.equal(storeA.setOnHand('prd_00002', 2), false, 'on hand never below allocated');
        assert.equal(storeA.adjustOnHand('prd_00002', -1), false);
        assert.equal(storeA.adjustOnHand('prd_00002', 4), true);
      } finally {
        a.close();
        b.close();
        temp.remove();
      }
    });
  });
});
