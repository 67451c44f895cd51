import type { OrderLineRecord, OrderRecord, OrderStatus, OrderView } from './order-types.ts';

/** The orders' storage port (synchronous; null for "not found"). */
export interface OrderStore {
  /** Stores a new order with its lines. */
  insertOrder(order: OrderRecord, lines: OrderLineRecord[]): void;
  /** The order with its lines in line order, or null. */
  findOrder(id: string): OrderView | null;
  /** Moves the order from `from` to `to`; false when its status was not `from`. */
  updateStatus(id: string, from: OrderStatus, to: OrderStatus, at: string): boolean;
}
