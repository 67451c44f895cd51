import type { Environment } from '@keygate/identity';
import { count, getTableColumns, getTableName } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { CommerceDatabase } from '../db/database.ts';
import { claimDatabaseEnvironment } from '../db/database-environment.ts';
import { idempotencyRecords } from '../db/idempotency-schema.ts';
import { orderLines, orders } from '../db/order-schema.ts';
import { cartLines, carts, channels, customers, prices, products, stock, vatRates } from '../db/schema.ts';
import { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents } from '../db/webhook-schema.ts';
import { generateSeedRows } from './seed-data.ts';

export interface SeedResult {
  channels: number;
  customers: number;
  products: number;
  prices: number;
}

/** True when the database holds no channels and no products (a fresh file). */
export function isDatabaseEmpty(db: CommerceDatabase): boolean {
  const [c] = db.orm.select({ n: count() }).from(channels).all();
  const [p] = db.orm.select({ n: count() }).from(products).all();
  return (c?.n ?? 0) === 0 && (p?.n ?? 0) === 0;
}

/** Every data table, children before parents. */
const DATA_TABLES: SQLiteTable[] = [
  // Kept answers describe carts and orders a reset removes: a replay must not return them.
  idempotencyRecords,
  webhookAttempts,
  webhookDeliveries,
  webhookEvents,
  webhookEndpoints,
  orderLines,
  orders,
  cartLines,
  carts,
  stock,
  prices,
  products,
  customers,
  vatRates,
  channels,
];

/** Deletes every row of every data table (children first; webhooks too), in one transaction; `meta` stays. */
export function clearDatabase(db: CommerceDatabase): void {
  db.sqlite.transaction(() => {
    for (const table of DATA_TABLES) {
      db.orm.delete(table).run();
    }
  })();
}

/** Tables a sandbox reset keeps: the integrator's webhook endpoints (and their secrets) stay subscribed. */
const KEPT_BY_RESET = new Set<SQLiteTable>([webhookEndpoints]);

/**
 * Puts the test environment's data back to the seed in one transaction: every data table but the
 * webhook endpoints is emptied (carts, orders, events and deliveries go) and the seed of the same
 * size is inserted again (products, prices, stock, customers, channels, VAT rates).
 */
export function resetToSeed(db: CommerceDatabase, environment: Environment): SeedResult {
  // The seed's size as it was made (`--products`): its regular products are the KG-<n> SKUs.
  const regular = db.sqlite
    .prepare("SELECT count(*) AS n FROM products WHERE sku GLOB 'KG-[0-9]*'")
    .get() as {
    n: number;
  };
  return db.sqlite.transaction(() => {
    for (const table of DATA_TABLES) {
      if (!KEPT_BY_RESET.has(table)) db.orm.delete(table).run();
    }
    return seedDatabase(db, { environment, products: regular.n || undefined });
  })();
}

/**
 * Inserts the deterministic seed for `environment` in one transaction, recording the environment
 * in `meta` (DatabaseEnvironmentError, and nothing written, when the file belongs to the other one).
 */
export function seedDatabase(
  db: CommerceDatabase,
  options: { environment: Environment; products?: number },
): SeedResult {
  const rows = generateSeedRows(options);
  db.sqlite.transaction(() => {
    claimDatabaseEnvironment(db, options.environment);
    insertAll(db, channels, rows.channels);
    insertAll(db, vatRates, rows.vatRates);
    insertAll(db, customers, rows.customers);
    insertAll(db, products, rows.products);
    insertAll(db, prices, rows.prices);
    insertAll(db, stock, rows.stock);
  })();
  return {
    channels: rows.channels.length,
    customers: rows.customers.length,
    products: rows.products.length,
    prices: rows.prices.length,
  };
}

/** Inserts rows through one prepared statement per table (fast: 10,000 products in about a second). */
function insertAll<T extends SQLiteTable>(db: CommerceDatabase, table: T, values: T['$inferInsert'][]): void {
  const columns = Object.entries(getTableColumns(table));
  const names = columns.map(([, column]) => `"${column.name}"`).join(', ');
  const statement = db.sqlite.prepare(
    `INSERT INTO "${getTableName(table)}" (${names}) VALUES (${columns.map(() => '?').join(', ')})`,
  );
  for (const row of values as Record<string, unknown>[]) {
    statement.run(
      columns.map(([key, column]) => {
        const value = row[key] ?? column.default ?? null;
        return value === null ? null : column.mapToDriverValue(value);
      }),
    );
  }
}
