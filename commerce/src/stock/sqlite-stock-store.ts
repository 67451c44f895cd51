import { eq, sql } from 'drizzle-orm';
import type { CommerceDatabase } from '../db/database.ts';
import { products, stock } from '../db/schema.ts';
import type { StockRecord, StockStore } from './stock-store.ts';

/** The stock store on the commerce database; each write is a single conditional statement. */
export function createSqliteStockStore(db: CommerceDatabase): StockStore {
  const { orm, sqlite } = db;
  const columns = {
    productId: products.id,
    sku: products.sku,
    onHand: sql<number>`coalesce(${stock.onHand}, 0)`,
    allocated: sql<number>`coalesce(${stock.allocated}, 0)`,
  };
  const select = () => orm.select(columns).from(products).leftJoin(stock, eq(stock.productId, products.id));
  const bySku = select()
    .where(eq(products.sku, sql.placeholder('sku')))
    .prepare();
  const byId = select()
    .where(eq(products.id, sql.placeholder('id')))
    .prepare();
  const statements = {
    set: sqlite.prepare(
      `INSERT INTO stock (product_id, on_hand, allocated) VALUES (?, ?, 0)
       ON CONFLICT (product_id) DO UPDATE SET on_hand = excluded.on_hand WHERE stock.allocated <= excluded.on_hand`,
    ),
    adjust: sqlite.prepare(
      'UPDATE stock SET on_hand = on_hand + ? WHERE product_id = ? AND on_hand + ? >= allocated',
    ),
    insertPositive: sqlite.prepare(
      'INSERT INTO stock (product_id, on_hand, allocated) VALUES (?, ?, 0) ON CONFLICT (product_id) DO NOTHING',
    ),
    allocate: sqlite.prepare(
      'UPDATE stock SET allocated = allocated + ? WHERE product_id = ? AND on_hand - allocated >= ?',
    ),
    release: sqlite.prepare(
      'UPDATE stock SET allocated = allocated - ? WHERE product_id = ? AND allocated >= ?',
    ),
    consume: sqlite.prepare(
      'UPDATE stock SET on_hand = on_hand - ?, allocated = allocated - ? WHERE product_id = ? AND allocated >= ?',
    ),
  };
  const orNull = (row: StockRecord | undefined) => row ?? null;
  return {
    findBySku: (sku) => orNull(bySku.get({ sku })),
    findByProductId: (id) => orNull(byId.get({ id })),
    setOnHand: (productId, onHand) => statements.set.run(productId, onHand).changes === 1,
    adjustOnHand(productId, delta) {
      if (statements.adjust.run(delta, productId, delta).changes === 1) return true;
      // No row yet: the product has 0 on hand, so only a positive delta can apply.
      return delta > 0 && statements.insertPositive.run(productId, delta).changes === 1;
    },
    allocate: (productId, qty) => statements.allocate.run(qty, productId, qty).changes === 1,
    release: (productId, qty) => statements.release.run(qty, productId, qty).changes === 1,
    consume: (productId, qty) => statements.consume.run(qty, qty, productId, qty).changes === 1,
  };
}
