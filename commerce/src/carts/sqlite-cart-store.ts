import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { CommerceDatabase } from '../db/database.ts';
import { cartLines, carts } from '../db/schema.ts';
import type { CartStore } from './cart-store.ts';

const p = sql.placeholder;

/**
 * The cart store on the commerce SQLite database. The statements a cart change runs are drizzle
 * prepared statements built once per store: building and preparing the SQL on every call cost a
 * cart-line change more than SQLite's own work for it.
 */
export function createSqliteCartStore(db: CommerceDatabase): CartStore {
  const { orm, sqlite } = db;
  const q = {
    cart: orm
      .select()
      .from(carts)
      .where(eq(carts.id, p('id')))
      .prepare(),
    lines: orm
      .select({ productId: cartLines.productId, qty: cartLines.qty, addedAt: cartLines.addedAt })
      .from(cartLines)
      .where(eq(cartLines.cartId, p('cartId')))
      .orderBy(asc(cartLines.id))
      .prepare(),
    saveLine: orm
      .insert(cartLines)
      .values({ cartId: p('cartId'), productId: p('productId'), qty: p('qty'), addedAt: p('at') })
      .onConflictDoUpdate({
        target: [cartLines.cartId, cartLines.productId],
        set: { qty: sql`excluded.qty` },
      })
      .prepare(),
    deleteLine: orm
      .delete(cartLines)
      .where(and(eq(cartLines.cartId, p('cartId')), eq(cartLines.productId, p('productId'))))
      .prepare(),
    touch: orm
      .update(carts)
      .set({ updatedAt: sql`${p('at')}` })
      .where(eq(carts.id, p('id')))
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
      return q.cart.get({ id }) ?? null;
    },
    listLines(cartId) {
      return q.lines.all({ cartId });
    },
    saveLine(cartId, productId, qty, at) {
      q.saveLine.run({ cartId, productId, qty, at });
    },
    deleteLine(cartId, productId) {
      return q.deleteLine.run({ cartId, productId }).changes === 1;
    },
    touchCart(cartId, at) {
      q.touch.run({ id: cartId, at });
    },
    markCheckedOut(cartId, at) {
      return q.checkOut.run({ id: cartId, at }).changes === 1;
    },
    atomically<T>(work: () => T): T {
      return inTransaction.immediate(work) as T;
    },
  };
}
