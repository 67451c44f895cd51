/** A product's stock; a product without a stock row has zero of both. */
export interface StockRecord {
  productId: string;
  sku: string;
  onHand: number;
  allocated: number;
}

/**
 * The stock storage port. Every write is one conditional UPDATE (or upsert) that can never take
 * a level negative or below what is allocated; it returns false when its condition did not hold.
 */
export interface StockStore {
  /** The stock of the product with this SKU, or null when there is no such product. */
  findBySku(sku: string): StockRecord | null;
  /** The stock of a product by id, or null when there is no such product. */
  findByProductId(productId: string): StockRecord | null;
  /** Sets on_hand when the new value is at least what is allocated (creating the row if needed). */
  setOnHand(productId: string, onHand: number): boolean;
  /** Adds `delta` to on_hand when the result stays at least what is allocated. */
  adjustOnHand(productId: string, delta: number): boolean;
  /** `allocated += qty` only WHERE on_hand − allocated ≥ qty. */
  allocate(productId: string, qty: number): boolean;
  /** `allocated −= qty` only WHERE allocated ≥ qty (an order's cancellation). */
  release(productId: string, qty: number): boolean;
  /** `on_hand −= qty, allocated −= qty` only WHERE allocated ≥ qty (an order's shipment). */
  consume(productId: string, qty: number): boolean;
}
