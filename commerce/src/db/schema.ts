import { sql } from 'drizzle-orm';
import {
  type AnySQLiteColumn,
  check,
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/sqlite-core';

/**
 * The commerce schema. SQL names are snake_case, TypeScript properties camelCase.
 * Money is always an integer amount in minor units of the channel's ISO 4217 currency.
 * Timestamps are ISO 8601 UTC strings (`2025-01-01T00:00:00.000Z`), so they sort as text.
 */

/**
 * Facts about the database itself, one row per key. `environment` (live | test) is written the
 * first time a process migrates or seeds the file; a process of the other environment refuses it.
 */
export const meta = sqliteTable('meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

/** The only timestamp form SQL text comparison and `Date.parse` agree on. */
const CANONICAL_TIMESTAMP_GLOB =
  '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z';

/**
 * NULL, or exactly `YYYY-MM-DDTHH:MM:SS.sssZ` (what `Date.prototype.toISOString` writes) naming a
 * real instant: SQL compares these columns as text and JS parses them, and only this one form makes
 * both agree (`…:00Z` without milliseconds sorts after `…:00.000Z` but is the same instant).
 */
function isCanonicalTimestamp(column: AnySQLiteColumn) {
  return sql`${column} IS NULL OR (length(${column}) = 24 AND ${column} GLOB ${sql.raw(`'${CANONICAL_TIMESTAMP_GLOB}'`)} AND strftime('%Y-%m-%dT%H:%M:%fZ', ${column}) = ${column})`;
}

/** Sales channels; the code is UPPER_SNAKE so it can be a GraphQL enum value. */
export const channels = sqliteTable(
  'channels',
  {
    code: text('code').primaryKey(),
    name: text('name').notNull(),
    currency: text('currency').notNull(),
    taxCountry: text('tax_country').notNull(),
    pricesIncludeVat: integer('prices_include_vat', { mode: 'boolean' }).notNull(),
  },
  (t) => [
    check('channels_code_format', sql`${t.code} GLOB '[A-Z]*' AND ${t.code} NOT GLOB '*[^A-Z0-9_]*'`),
    check('channels_currency_format', sql`length(${t.currency}) = 3`),
    check('channels_tax_country_format', sql`length(${t.taxCountry}) = 2`),
  ],
);

export const products = sqliteTable(
  'products',
  {
    id: text('id').primaryKey(),
    sku: text('sku').notNull().unique(),
    name: text('name').notNull(),
    taxClass: text('tax_class').notNull(),
    /**
     * The product's images as a JSON array of `{url, alt, width, height}`, set through the API;
     * NULL (every seeded product) means the generated image of the product (catalog/product-images.ts),
     * so seeding writes nothing for images however many products there are.
     */
    images: text('images'),
  },
  (t) => [
    check('products_tax_class', sql`${t.taxClass} IN ('standard', 'reduced', 'zero')`),
    check('products_images_json', sql`${t.images} IS NULL OR json_type(${t.images}) = 'array'`),
  ],
);

export const customers = sqliteTable(
  'customers',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    tier: text('tier').notNull(),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [check('customers_tier', sql`${t.tier} IN ('retail', 'silver', 'gold')`)],
);

/**
 * Price rows. `base` applies to everyone, `tier` to customers of `tier_code`, `agreement` to
 * one customer. A row applies from `min_quantity` units, and only inside its optional
 * validity window [valid_from, valid_to); both bounds are NULL or canonical ISO 8601 UTC with
 * milliseconds (`2025-01-01T00:00:00.000Z`), enforced by CHECK constraints.
 */
export const prices = sqliteTable(
  'prices',
  {
    id: text('id').primaryKey(),
    productId: text('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    channelCode: text('channel_code')
      .notNull()
      .references(() => channels.code),
    level: text('level').notNull(),
    tierCode: text('tier_code'),
    customerId: text('customer_id').references(() => customers.id, { onDelete: 'cascade' }),
    minQuantity: integer('min_quantity').notNull().default(1),
    validFrom: text('valid_from'),
    validTo: text('valid_to'),
    amount: integer('amount').notNull(),
  },
  (t) => [
    index('prices_channel_product_idx').on(t.channelCode, t.productId),
    index('prices_customer_idx').on(t.customerId),
    // Customer pricing pages find the products with a tier's rows without reading every price.
    index('prices_tier_product_idx').on(t.tierCode, t.productId),
    // The response cache finds the next instant a price starts or stops applying with these.
    index('prices_valid_from_idx').on(t.validFrom).where(sql`${t.validFrom} IS NOT NULL`),
    index('prices_valid_to_idx').on(t.validTo).where(sql`${t.validTo} IS NOT NULL`),
    check('prices_level', sql`${t.level} IN ('base', 'tier', 'agreement')`),
    check(
      'prices_level_target',
      sql.join(
        [
          sql`(${t.level} = 'base' AND ${t.tierCode} IS NULL AND ${t.customerId} IS NULL)`,
          sql`(${t.level} = 'tier' AND ${t.tierCode} IN ('retail', 'silver', 'gold') AND ${t.customerId} IS NULL)`,
          sql`(${t.level} = 'agreement' AND ${t.customerId} IS NOT NULL AND ${t.tierCode} IS NULL)`,
        ],
        sql` OR `,
      ),
    ),
    check('prices_min_quantity', sql`${t.minQuantity} >= 1`),
    check('prices_amount', sql`${t.amount} >= 0`),
    check(
      'prices_window',
      sql`${t.validFrom} IS NULL OR ${t.validTo} IS NULL OR ${t.validFrom} < ${t.validTo}`,
    ),
    check('prices_valid_from_canonical', isCanonicalTimestamp(t.validFrom)),
    check('prices_valid_to_canonical', isCanonicalTimestamp(t.validTo)),
  ],
);

/** VAT rate per country and tax class, in basis points (1900 = 19.00 %). */
export const vatRates = sqliteTable(
  'vat_rates',
  {
    country: text('country').notNull(),
    taxClass: text('tax_class').notNull(),
    rateBp: integer('rate_bp').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.country, t.taxClass] }),
    check('vat_rates_rate', sql`${t.rateBp} BETWEEN 0 AND 10000`),
  ],
);

/** Stock per product; available = on_hand − allocated, never negative. */
export const stock = sqliteTable(
  'stock',
  {
    productId: text('product_id')
      .primaryKey()
      .references(() => products.id, { onDelete: 'cascade' }),
    onHand: integer('on_hand').notNull().default(0),
    allocated: integer('allocated').notNull().default(0),
  },
  (t) => [
    check('stock_on_hand', sql`${t.onHand} >= 0`),
    check('stock_allocated', sql`${t.allocated} >= 0 AND ${t.allocated} <= ${t.onHand}`),
  ],
);

export const carts = sqliteTable(
  'carts',
  {
    id: text('id').primaryKey(),
    channelCode: text('channel_code')
      .notNull()
      .references(() => channels.code),
    customerId: text('customer_id').references(() => customers.id),
    keyId: text('key_id').notNull(),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
    /** Set once, when the cart becomes an order; a checked-out cart takes no more items. */
    checkedOutAt: text('checked_out_at'),
  },
  (t) => [index('carts_customer_idx').on(t.customerId)],
);

export const cartLines = sqliteTable(
  'cart_lines',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    cartId: text('cart_id')
      .notNull()
      .references(() => carts.id, { onDelete: 'cascade' }),
    productId: text('product_id')
      .notNull()
      .references(() => products.id),
    qty: integer('qty').notNull(),
    addedAt: text('added_at').notNull(),
  },
  (t) => [
    uniqueIndex('cart_lines_cart_product_idx').on(t.cartId, t.productId),
    check('cart_lines_qty', sql`${t.qty} >= 1`),
  ],
);
