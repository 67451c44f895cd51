import { sql } from 'drizzle-orm';
import { check, index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { carts, channels, customers, products } from './schema.ts';

/**
 * Orders, placed from a cart (one order per cart). Money in integer minor units of `currency`,
 * priced when the order was placed. Stock for every line is allocated in the same transaction.
 */
export const orders = sqliteTable(
  'orders',
  {
    id: text('id').primaryKey(),
    cartId: text('cart_id')
      .notNull()
      .unique()
      .references(() => carts.id),
    /** The API key that placed the order; for any other key the order does not exist. */
    keyId: text('key_id').notNull(),
    channelCode: text('channel_code')
      .notNull()
      .references(() => channels.code),
    customerId: text('customer_id').references(() => customers.id),
    currency: text('currency').notNull(),
    status: text('status').notNull(),
    net: integer('net').notNull(),
    vat: integer('vat').notNull(),
    gross: integer('gross').notNull(),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    index('orders_key_idx').on(t.keyId),
    check('orders_status', sql`${t.status} IN ('placed', 'cancelled', 'fulfilled')`),
  ],
);

/** One product of an order, with the unit price it was sold at. */
export const orderLines = sqliteTable(
  'order_lines',
  {
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    lineNo: integer('line_no').notNull(),
    productId: text('product_id')
      .notNull()
      .references(() => products.id),
    sku: text('sku').notNull(),
    name: text('name').notNull(),
    qty: integer('qty').notNull(),
    unitNet: integer('unit_net').notNull(),
    unitVat: integer('unit_vat').notNull(),
    unitGross: integer('unit_gross').notNull(),
    vatRateBp: integer('vat_rate_bp').notNull(),
    priceSource: text('price_source').notNull(),
    net: integer('net').notNull(),
    vat: integer('vat').notNull(),
    gross: integer('gross').notNull(),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.lineNo] }), check('order_lines_qty', sql`${t.qty} >= 1`)],
);
