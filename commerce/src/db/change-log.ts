import type { Statement } from 'better-sqlite3';
import type { CommerceDatabase } from './database.ts';

/**
 * The names of what a cached answer read, and of what a write changed. An answer kept under a tag
 * is dropped when a write logs that tag. Table tags stand for "any row of the table", for answers
 * whose membership any row can change (a list page: which products are on it); row tags for one
 * row's values.
 */
export const changeTags = {
  /** Any product row (a list page's membership and search). */
  products: 'products',
  /** The product with this SKU (its page; a row that takes or gives up the SKU logs it too). */
  sku: (sku: string) => `sku:${sku}`,
  /** Any stock row (pages filtered by `inStock`). */
  stock: 'stock',
  /** One product's stock. */
  stockOf: (productId: string) => `stock:${productId}`,
  /** Any price row of one product in one channel (every level, quantity break and window). */
  priceOf: (channelCode: string, productId: string) => `price:${channelCode}:${productId}`,
  /** A base row from quantity 1 in the channel: what decides which products the channel sells. */
  sellableIn: (channelCode: string) => `price-base:${channelCode}`,
  /** One customer (their tier). */
  customer: (customerId: string) => `customer:${customerId}`,
  /** Any channel. */
  channels: 'channels',
  /** The VAT rates of one country. */
  vatOf: (country: string) => `vat:${country}`,
} as const;

/**
 * The tags a row change logs, per table, as SQL over the changed row `R` (OLD and NEW on an update,
 * so a row moved from one product, SKU or channel to another drops the answers of both). They must
 * name exactly what `changeTags` names; the response cache tests hold both to each other, a table
 * at a time. Tables not listed here (carts and their lines, orders, webhooks, idempotency records,
 * meta) log nothing: no cached answer reads them.
 */
const TAGS_OF_ROW: Readonly<Record<string, readonly string[]>> = {
  products: ["'products'", "'sku:' || R.sku"],
  stock: ["'stock'", "'stock:' || R.product_id"],
  prices: [
    "'price:' || R.channel_code || ':' || R.product_id",
    "CASE WHEN R.level = 'base' AND R.min_quantity = 1 THEN 'price-base:' || R.channel_code END",
  ],
  customers: ["'customer:' || R.id"],
  channels: ["'channels'"],
  vat_rates: ["'vat:' || R.country"],
};

const LOG_TABLE = 'response_cache_changes';

function triggerSql(table: string, event: 'INSERT' | 'UPDATE' | 'DELETE', tags: readonly string[]): string {
  const rows = event === 'INSERT' ? ['NEW'] : event === 'DELETE' ? ['OLD'] : ['OLD', 'NEW'];
  const values = rows.flatMap((row) => tags.map((tag) => `(${tag.replaceAll('R.', `${row}.`)})`));
  // NOT IN rather than OR IGNORE: an outer statement's conflict policy would override the trigger's.
  return `CREATE TEMP TRIGGER IF NOT EXISTS ${LOG_TABLE}_${table}_${event.toLowerCase()}
    AFTER ${event} ON main.${table} BEGIN
      INSERT INTO ${LOG_TABLE} (tag) SELECT DISTINCT column1 FROM (VALUES ${values.join(', ')})
      WHERE column1 IS NOT NULL AND column1 NOT IN (SELECT tag FROM ${LOG_TABLE});
    END`;
}

export interface ChangeLog {
  /** The tags logged since the last drain (each once), and an empty log after. */
  drain(): string[];
}

/**
 * Logs, on this connection, the tags of every row it inserts, updates or deletes in the tables an
 * answer can read. TEMP triggers write a TEMP table: both belong to this connection alone, cost no
 * migration and leave the file as it is, and the log is written in the same transaction as the
 * change (a rolled-back change logs nothing). Another connection's writes are not logged here:
 * the cache sees those through `PRAGMA data_version` instead. Installing again is harmless.
 */
export function installChangeLog(db: CommerceDatabase): ChangeLog {
  db.sqlite.exec(`CREATE TEMP TABLE IF NOT EXISTS ${LOG_TABLE} (tag TEXT PRIMARY KEY) WITHOUT ROWID`);
  for (const [table, tags] of Object.entries(TAGS_OF_ROW)) {
    for (const event of ['INSERT', 'UPDATE', 'DELETE'] as const)
      db.sqlite.exec(triggerSql(table, event, tags));
  }
  const drain: Statement<[], { tag: string }> = db.sqlite.prepare(
    `DELETE FROM temp.${LOG_TABLE} RETURNING tag`,
  );
  return { drain: () => drain.all().map((row) => row.tag) };
}
