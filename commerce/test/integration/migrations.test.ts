import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { pino } from 'pino';
import { createApp } from '../../src/app.ts';
import {
  type CommerceDatabase,
  MIGRATIONS_FOLDER,
  migrateDatabase,
  openDatabase,
} from '../../src/db/database.ts';
import {
  claimDatabaseEnvironment,
  DatabaseEnvironmentError,
  readDatabaseEnvironment,
} from '../../src/db/database-environment.ts';
import { isDatabaseEmpty, seedDatabase } from '../../src/seed/seed-database.ts';
import { createTempDir } from '../support/app.ts';
import { createTestIdentity } from '../support/identity.ts';

/** A migrations folder holding only the first `count` committed migrations. */
function firstMigrations(dir: string, count: number): string {
  const folder = join(dir, `migrations-${count}`);
  mkdirSync(join(folder, 'meta'), { recursive: true });
  const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8'));
  journal.entries = journal.entries.slice(0, count);
  writeFileSync(join(folder, 'meta', '_journal.json'), JSON.stringify(journal));
  for (const { tag } of journal.entries)
    copyFileSync(join(MIGRATIONS_FOLDER, `${tag}.sql`), join(folder, `${tag}.sql`));
  return folder;
}

/** A temp database migrated by `setUp`, closed and removed after `work`. */
function withDatabase(
  work: (db: CommerceDatabase, dir: string) => void,
  setUp: (db: CommerceDatabase, dir: string) => void = migrateDatabase,
): void {
  const temp = createTempDir();
  const db = openDatabase(join(temp.dir, 'c.db'));
  try {
    setUp(db, temp.dir);
    work(db, temp.dir);
  } finally {
    db.close();
    temp.remove();
  }
}

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
          'idempotency_records',
          'meta',
          'order_lines',
          'orders',
          'prices',
          // The trigram search index over products (migration 0005) and its FTS5 shadow tables.
          'product_search',
          'product_search_config',
          'product_search_data',
          'product_search_docsize',
          'product_search_idx',
          'products',
          'stock',
          'vat_rates',
          'webhook_attempts',
          'webhook_deliveries',
          'webhook_endpoints',
          'webhook_events',
        ]);
        const applied = db.sqlite.prepare('SELECT count(*) AS n FROM __drizzle_migrations').get() as {
          n: number;
        };
        assert.equal(applied.n, readdirSync(MIGRATIONS_FOLDER).filter((f) => f.endsWith('.sql')).length);
        assert.equal(applied.n, 11);
        assert.equal(db.sqlite.pragma('journal_mode', { simple: true }), 'wal');
        assert.equal(db.sqlite.pragma('foreign_keys', { simple: true }), 1);
        const indexes = db.sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'index'").all();
        for (const name of [
          'prices_channel_product_idx',
          'prices_tier_product_idx',
          'webhook_deliveries_event_idx',
        ]) {
          assert.ok(
            indexes.some((i) => (i as { name: string }).name === name),
            name,
          );
        }
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

  describe('price validity bounds', () => {
    const CANONICAL = '2025-01-01T00:00:00.000Z';
    const insertPrice = (db: CommerceDatabase) => {
      db.sqlite.exec(`
        INSERT INTO channels VALUES ('WEB_DE', 'Web', 'EUR', 'DE', 1);
        INSERT INTO products (id, sku, name, tax_class) VALUES ('p1', 'S1', 'One', 'standard');`);
      let n = 0;
      const statement = db.sqlite.prepare(
        "INSERT INTO prices (id, product_id, channel_code, level, valid_from, valid_to, amount) VALUES (?, 'p1', 'WEB_DE', 'base', ?, ?, 100)",
      );
      return (from: string | null, to: string | null) => statement.run(`prc_${++n}`, from, to);
    };

    it('accept NULL and the canonical ISO 8601 UTC form with milliseconds', () => {
      withDatabase((db) => {
        const insert = insertPrice(db);
        insert(null, null);
        insert(CANONICAL, '2100-01-01T00:00:00.000Z');
        insert(null, '2024-02-29T23:59:59.999Z');
      });
    });

    for (const bad of [
      '2025-01-01T00:00:00Z',
      '2025-01-01T00:00:00.000+00:00',
      '2025-01-01 00:00:00.000Z',
      '2025-01-01',
      '2025-02-30T00:00:00.000Z',
      '2025-01-01T24:00:00.000Z',
      '2025-1-01T00:00:00.0000Z',
    ]) {
      it(`refuse ${bad} in valid_from and in valid_to`, () => {
        withDatabase((db) => {
          const insert = insertPrice(db);
          assert.throws(() => insert(bad, null), /CHECK constraint failed: prices_valid_from_canonical/);
          assert.throws(() => insert(null, bad), /CHECK constraint failed: prices_valid_to_canonical/);
        });
      });
    }

    /** Migrates `db` with only the initial migration, as a database from before 0002 was. */
    const migrateInitialOnly = (db: CommerceDatabase, dir: string) =>
      migrate(db.orm, { migrationsFolder: firstMigrations(dir, 1) });

    it('are rewritten to the canonical form when an older database is migrated', () => {
      withDatabase((db, dir) => {
        insertPrice(db)('2025-01-01T00:00:00Z', '2025-06-01T02:00:00+02:00');
        migrate(db.orm, { migrationsFolder: firstMigrations(dir, 3) });
        assert.deepEqual(db.sqlite.prepare('SELECT valid_from, valid_to FROM prices').get(), {
          valid_from: CANONICAL,
          valid_to: '2025-06-01T00:00:00.000Z',
        });
      }, migrateInitialOnly);
    });

    it('stop the migration, changing nothing, when an older bound is not a date at all', () => {
      withDatabase((db, dir) => {
        insertPrice(db)('soon', null);
        assert.throws(
          () => migrate(db.orm, { migrationsFolder: firstMigrations(dir, 3) }),
          (error: Error) => /CHECK constraint failed: prices_valid_from_canonical/.test(String(error.cause)),
        );
        assert.deepEqual(db.sqlite.prepare('SELECT valid_from FROM prices').all(), [{ valid_from: 'soon' }]);
        const applied = db.sqlite.prepare('SELECT count(*) AS n FROM __drizzle_migrations').get();
        assert.deepEqual(applied, { n: 1 });
      }, migrateInitialOnly);
    });
  });

  describe('the environment record', () => {
    it('is written by the first seed and kept by later claims of the same environment', () => {
      withDatabase((db) => {
        assert.equal(readDatabaseEnvironment(db), null);
        seedDatabase(db, { environment: 'test', products: 2 });
        assert.equal(readDatabaseEnvironment(db), 'test');
        claimDatabaseEnvironment(db, 'test');
        assert.equal(readDatabaseEnvironment(db), 'test');
      });
    });

    it('refuses the other environment: claim, seed and createApp throw and write nothing', async () => {
      const { verifier } = await createTestIdentity();
      withDatabase((db) => {
        claimDatabaseEnvironment(db, 'live');
        assert.throws(() => claimDatabaseEnvironment(db, 'test'), DatabaseEnvironmentError);
        assert.throws(
          () => seedDatabase(db, { environment: 'test', products: 2 }),
          /belongs to the live environment, this process serves test/,
        );
        assert.equal(isDatabaseEmpty(db), true);
        assert.throws(
          () => createApp({ db, environment: 'test', verifier, logger: pino({ level: 'silent' }) }),
          DatabaseEnvironmentError,
        );
        assert.equal(readDatabaseEnvironment(db), 'live');
      });
    });
  });
});
