import type { StockChangeReason, StockEventData, StockLevelJson } from '../webhooks/event-catalogue.ts';
import type { EventOutbox } from '../webhooks/outbox.ts';
import type { StockRecord } from './stock-store.ts';

/** The level of a stock record as events and responses show it. */
export function toStockLevel(record: StockRecord): StockLevelJson {
  return { onHand: record.onHand, allocated: record.allocated, available: record.onHand - record.allocated };
}

/**
 * Records the events of one product's stock change, inside the change's transaction:
 * `stock.updated` when onHand or allocated changed, then `stock.out_of_stock` when available fell
 * to zero or `stock.back_in_stock` when it rose from zero.
 */
export function recordStockChange(
  outbox: EventOutbox,
  change: { before: StockRecord; after: StockRecord; reason: StockChangeReason; orderId: string | null },
): void {
  const old = toStockLevel(change.before);
  const current = toStockLevel(change.after);
  if (old.onHand === current.onHand && old.allocated === current.allocated) return;
  const data: StockEventData = {
    sku: change.after.sku,
    productId: change.after.productId,
    reason: change.reason,
    orderId: change.orderId,
    old,
    new: current,
  };
  outbox.record('stock.updated', data);
  if (old.available > 0 && current.available === 0) outbox.record('stock.out_of_stock', data);
  if (old.available === 0 && current.available > 0) outbox.record('stock.back_in_stock', data);
}
