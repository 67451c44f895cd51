import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { migrateDatabase, openDatabase } from '../../src/db/database.ts';
import { isDatabaseEmpty } from '../../src/seed/seed-database.ts';
import { createTempDir } from '../support/app.ts';

describe('migrations', () => {
  describe('on an empty file', () => {
    it('create every table, in WAL mode with foreign keys on, and run once', () => {
      const temp = createTempDir();
      const file = join(temp.dir, 'empty.db');
      writeFileSync(file, '');
      const db = openDatabase(file);
      try {
        migrateDatabase(db);
        migrateDatabase(db);
        const tables = db.sqlite
          .prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
          )
          .all()
          .map((r) => (r as { name: string }).name);
        assert.deepEqual(tables, [
          '__drizzle_migrations',
          'cart_lines',
          'carts',
          'channels',
          'customers',
          'prices',
          'products',
          'stock',
          'vat_rates',
        ]);
        const applied = db.sqlite.prepare('SELECT count(*) AS n FROM __drizzle_migrations').get() as {
          n: number;
        };
        assert.equal(applied.n, 1);
        assert.equal(db.sqlite.pragma('journal_mode', { simple: true }), 'wal');
        assert.equal(db.sqlite.pragma('foreign_keys', { simple: true }), 1);
        const indexes = db.sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'index'").all();
        assert.ok(indexes.some((i) => (i as { name: string }).name === 'prices_channel_product_idx'));
        assert.equal(isDatabaseEmpty(db), true);
      } finally {
        db.close();
        temp.remove();
      }
    });
  });

  describe('constraints', () => {
    it('refuse negative or over-allocated stock and unknown foreign keys', () => {
      const temp = createTempDir();
      const db = openDatabase(join(temp.dir, 'c.db'));
      try {
        migrateDatabase(db);
        db.sqlite.exec(
          "INSERT INTO products (id, sku, name, tax_class) VALUES ('p1', 'S1', 'One', 'standard')",
        );
        const insertStock = db.sqlite.prepare(
          'INSERT INTO stock (product_id, on_hand, allocated) VALUES (?, ?, ?)',
        );
        assert.throws(() => insertStock.run('p1', -1, 0), /CHECK constraint failed/);
        assert.throws(() => insertStock.run('p1', 2, 3), /CHECK constraint failed/);
        assert.throws(() => insertStock.run('nope', 1, 0), /FOREIGN KEY constraint failed/);
        insertStock.run('p1', 3, 3);
        assert.throws(
          () => db.sqlite.exec("INSERT INTO channels VALUES ('web-de', 'x', 'EUR', 'DE', 1)"),
          /CHECK constraint failed/,
        );
      } finally {
        db.close();
        temp.remove();
      }
    });
  });
});
