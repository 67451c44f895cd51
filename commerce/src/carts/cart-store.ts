/** A stored cart (no lines). */
export interface CartRecord {
  id: string;
  channelCode: string;
  customerId: string | null;
  /** The API key that created the cart. */
  keyId: string;
  createdAt: string;
  updatedAt: string;
  /** When the cart became an order; null while it is open. */
  checkedOutAt: string | null;
}

/** A stored cart line. */
export interface CartLineRecord {
  productId: string;
  qty: number;
  addedAt: string;
}

/**
 * The carts' storage port. Synchronous (SQLite via better-sqlite3); null for "not found".
 */
export interface CartStore {
  /** Stores a new cart. */
  insertCart(cart: CartRecord): void;
  /** The cart with this id, or null. */
  findCart(id: string): CartRecord | null;
  /** The cart's lines in the order they were first added. */
  listLines(cartId: string): CartLineRecord[];
  /** Adds the cart's line for a product (the cart has none for it yet). */
  insertLine(cartId: string, productId: string, qty: number, at: string): void;
  /** Sets the quantity of the cart's existing line for a product; false when there is none. */
  setLineQuantity(cartId: string, productId: string, qty: number): boolean;
  /** Deletes the cart's line for a product; false when there was none. */
  deleteLine(cartId: string, productId: string): boolean;
  /** Sets the cart's updatedAt. */
  touchCart(cartId: string, at: string): void;
  /** Marks an open cart checked out; false when it already was. */
  markCheckedOut(cartId: string, at: string): boolean;
  /** Runs `work` in one write transaction: all of its writes happen, or none. */
  atomically<T>(work: () => T): T;
}
