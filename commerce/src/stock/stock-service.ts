import type { Atomically } from '../atomically.ts';
import { CommerceError } from '../errors.ts';
import type { StockLevelJson } from '../webhooks/event-catalogue.ts';
import type { EventOutbox } from '../webhooks/outbox.ts';
import { recordStockChange, toStockLevel } from './stock-events.ts';
import type { StockRecord, StockStore } from './stock-store.ts';

/** A product's stock as the API shows it. */
export type StockView = { sku: string } & StockLevelJson;

export interface StockService {
  /** Sets on hand (PRODUCT_NOT_FOUND; STOCK_BELOW_ALLOCATED below what orders hold). */
  setStock(sku: string, onHand: number): StockView;
  /** Adds `delta` (negative to remove) to on hand (same errors as setStock). */
  adjustStock(sku: string, delta: number): StockView;
}

function presentStock(record: StockRecord): StockView {
  return { sku: record.sku, ...toStockLevel(record) };
}

/** Stock changes, each with its events in one transaction. */
export function createStockService(deps: {
  store: StockStore;
  outbox: EventOutbox;
  atomically: Atomically;
}): StockService {
  const { store, outbox, atomically } = deps;

  function change(
    sku: string,
    reason: 'set' | 'adjusted',
    requested: string,
    write: (before: StockRecord) => boolean,
  ): StockView {
    return atomically(() => {
      const before = store.findBySku(sku);
      if (!before) throw new CommerceError('PRODUCT_NOT_FOUND', `There is no product ${sku}.`);
      if (!write(before)) {
        throw new CommerceError(
          'STOCK_BELOW_ALLOCATED',
          `${requested} would leave ${sku} with less on hand than the ${before.allocated} units orders hold.`,
          { onHand: before.onHand, allocated: before.allocated },
        );
      }
      const after = store.findByProductId(before.productId)!;
      recordStockChange(outbox, { before, after, reason, orderId: null });
      return presentStock(after);
    });
  }

  return {
    setStock(sku, onHand) {
      return change(sku, 'set', `Setting on hand to ${onHand}`, (before) =>
        store.setOnHand(before.productId, onHand),
      );
    },
    adjustStock(sku, delta) {
      return change(sku, 'adjusted', `Adjusting on hand by ${delta}`, (before) =>
        store.adjustOnHand(before.productId, delta),
      );
    },
  };
}
