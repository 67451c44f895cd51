import { and, asc, eq, isNull } from 'drizzle-orm';
import type { CommerceDatabase } from '../db/database.ts';
import { cartLines, carts } from '../db/schema.ts';
import type { CartStore } from './cart-store.ts';

/** The cart store on the commerce SQLite database. */
export function createSqliteCartStore(db: CommerceDatabase): CartStore {
  const { orm, sqlite } = db;
  return {
    insertCart(cart) {
      orm.insert(carts).values(cart).run();
    },
    findCart(id) {
      return orm.select().from(carts).where(eq(carts.id, id)).get() ?? null;
    },
    listLines(cartId) {
      return orm
        .select({ productId: cartLines.productId, qty: cartLines.qty, addedAt: cartLines.addedAt })
        .from(cartLines)
        .where(eq(cartLines.cartId, cartId))
        .orderBy(asc(cartLines.id))
        .all();
    },
    saveLine(cartId, productId, qty, at) {
      orm
        .insert(cartLines)
        .values({ cartId, productId, qty, addedAt: at })
        .onConflictDoUpdate({ target: [cartLines.cartId, cartLines.productId], set: { qty } })
        .run();
    },
    deleteLine(cartId, productId) {
      const result = orm
        .delete(cartLines)
        .where(and(eq(cartLines.cartId, cartId), eq(cartLines.productId, productId)))
        .run();
      return result.changes === 1;
    },
    touchCart(cartId, at) {
      orm.update(carts).set({ updatedAt: at }).where(eq(carts.id, cartId)).run();
    },
    markCheckedOut(cartId, at) {
      const result = orm
        .update(carts)
        .set({ checkedOutAt: at, updatedAt: at })
        .where(and(eq(carts.id, cartId), isNull(carts.checkedOutAt)))
        .run();
      return result.changes === 1;
    },
    atomically(work) {
      return sqlite.transaction(work).immediate();
    },
  };
}
