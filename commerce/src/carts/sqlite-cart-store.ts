import type { Statement } from 'better-sqlite3';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { CommerceDatabase } from '../db/database.ts';
import { cartLines, carts } from '../db/schema.ts';
import type { CartLineRecord, CartRecord, CartStore } from './cart-store.ts';

const p = sql.placeholder;

/**
 * The cart store on the commerce SQLite database. Every statement is prepared once per store, and
 * the ones a cart-line change runs are plain better-sqlite3 statements: drizzle's parameter filling
 * and row mapping would cost such a change more than SQLite's own work for it.
 *
 * A quantity change is an UPDATE of the existing row, never an upsert: `cart_lines.id` is
 * AUTOINCREMENT, and an INSERT that turns into an update still draws a new id and rewrites
 * `sqlite_sequence`, one more page for every commit to write.
 */
export function createSqliteCartStore(db: CommerceDatabase): CartStore {
  const { orm, sqlite } = db;
  const findCart: Statement<[string], CartRecord> = sqlite.prepare(
    `SELECT id, channel_code AS channelCode, customer_id AS customerId, key_id AS keyId,
       created_at AS createdAt, updated_at AS updatedAt, checked_out_at AS checkedOutAt
     FROM carts WHERE id = ?`,
  );
  // Put in order here rather than by ORDER BY id: the rows come from the (cart_id, product_id)
  // index, and sorting them in SQL opens a sorter for every call, which costs more than the read.
  const listLines: Statement<[string], CartLineRecord & { id: number }> = sqlite.prepare(
    'SELECT id, product_id AS productId, qty, added_at AS addedAt FROM cart_lines WHERE cart_id = ?',
  );
  const setLineQuantity: Statement<[number, string, string]> = sqlite.prepare(
    'UPDATE cart_lines SET qty = ? WHERE cart_id = ? AND product_id = ?',
  );
  const touchCart: Statement<[string, string]> = sqlite.prepare(
    'UPDATE carts SET updated_at = ? WHERE id = ?',
  );
  const q = {
    insertLine: orm
      .insert(cartLines)
      .values({ cartId: p('cartId'), productId: p('productId'), qty: p('qty'), addedAt: p('at') })
      .prepare(),
    deleteLine: orm
      .delete(cartLines)
      .where(and(eq(cartLines.cartId, p('cartId')), eq(cartLines.productId, p('productId'))))
      .prepare(),
    checkOut: orm
      .update(carts)
      .set({ checkedOutAt: sql`${p('at')}`, updatedAt: sql`${p('at')}` })
      .where(and(eq(carts.id, p('id')), isNull(carts.checkedOutAt)))
      .prepare(),
  };
  // One transaction function for every call (better-sqlite3 builds one per `transaction()`).
  const inTransaction = sqlite.transaction((work: () => unknown) => work());
  return {
    insertCart(cart) {
      orm.insert(carts).values(cart).run();
    },
    findCart(id) {
      return findCart.get(id) ?? null;
    },
    listLines(cartId) {
      const rows = listLines.all(cartId).sort((a, b) => a.id - b.id);
      return rows.map(({ productId, qty, addedAt }) => ({ productId, qty, addedAt }));
    },
    insertLine(cartId, productId, qty, at) {
      q.insertLine.run({ cartId, productId, qty, at });
    },
    setLineQuantity(cartId, productId, qty) {
      return setLineQuantity.run(qty, cartId, productId).changes === 1;
    },
    deleteLine(cartId, productId) {
      return q.deleteLine.run({ cartId, productId }).changes === 1;
    },
    touchCart(cartId, at) {
      touchCart.run(at, cartId);
    },
    markCheckedOut(cartId, at) {
      return q.checkOut.run({ id: cartId, at }).changes === 1;
    },
    atomically<T>(work: () => T): T {
      return inTransaction.immediate(work) as T;
    },
  };
}
