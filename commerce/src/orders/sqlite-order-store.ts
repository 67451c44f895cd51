import { and, asc, eq } from 'drizzle-orm';
import type { CommerceDatabase } from '../db/database.ts';
import { orderLines, orders } from '../db/order-schema.ts';
import type { PriceLevel } from '../pricing/types.ts';
import type { OrderStore } from './order-store.ts';
import type { OrderStatus } from './order-types.ts';

/** The order store on the commerce database. */
export function createSqliteOrderStore(db: CommerceDatabase): OrderStore {
  const { orm } = db;
  return {
    insertOrder(order, lines) {
      orm.insert(orders).values(order).run();
      if (lines.length > 0) {
        orm
          .insert(orderLines)
          .values(lines.map((line) => ({ ...line, orderId: order.id })))
          .run();
      }
    },
    findOrder(id) {
      const order = orm.select().from(orders).where(eq(orders.id, id)).get();
      if (!order) return null;
      const lines = orm
        .select()
        .from(orderLines)
        .where(eq(orderLines.orderId, id))
        .orderBy(asc(orderLines.lineNo))
        .all();
      return {
        order: { ...order, status: order.status as OrderStatus },
        lines: lines.map(({ orderId: _, ...line }) => ({
          ...line,
          priceSource: line.priceSource as PriceLevel,
        })),
      };
    },
    updateStatus(id, from, to, at) {
      const result = orm
        .update(orders)
        .set({ status: to, updatedAt: at })
        .where(and(eq(orders.id, id), eq(orders.status, from)))
        .run();
      return result.changes === 1;
    },
  };
}
