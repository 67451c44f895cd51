import { MAX_CART_LINES, MAX_LINE_QUANTITY } from '@keygate/contracts/commerce';
import { type CatalogService, isSellable, type PricingContext } from '../catalog/catalog-service.ts';
import type { CatalogStore } from '../catalog/catalog-store.ts';
import type { StockedProduct } from '../catalog/types.ts';
import { CommerceError } from '../errors.ts';
import type { ResolvedPrice } from '../pricing/resolve-price.ts';
import { multiplySplit, sumSplits, type VatSplit } from '../pricing/vat.ts';
import type { CartLineRecord, CartRecord, CartStore } from './cart-store.ts';

export { MAX_CART_LINES, MAX_LINE_QUANTITY };

export interface CartLineView {
  productId: string;
  sku: string;
  name: string;
  qty: number;
  /** Unit price for the line's quantity (quantity breaks apply); null if no longer sold. */
  unitPrice: ResolvedPrice | null;
  /** unitPrice × qty (no further rounding); null if no longer sold. */
  total: VatSplit | null;
}

/** A cart with its lines priced now; money in integer minor units of `totals.currency`. */
export interface CartView {
  cart: CartRecord;
  context: PricingContext;
  lines: CartLineView[];
  totals: VatSplit & { currency: string };
}

/** Throws CART_CHECKED_OUT for a cart that already became an order. */
export function assertOpen(cart: CartRecord): void {
  if (cart.checkedOutAt !== null) {
    throw new CommerceError('CART_CHECKED_OUT', `Cart ${cart.id} was checked out at ${cart.checkedOutAt}.`, {
      checkedOutAt: cart.checkedOutAt,
    });
  }
}

/**
 * Carts belong to the API key that created them: for any other key a cart does not exist
 * (CART_NOT_FOUND), so a key cannot even learn that another key's cart id is taken.
 */
export interface CartService {
  /** Creates an empty cart owned by `keyId` (UNKNOWN_CHANNEL / UNKNOWN_CUSTOMER). */
  createCart(input: { channelCode: string; customerId: string | null; keyId: string }): CartView;
  /** The cart priced now (CART_NOT_FOUND, also when `keyId` does not own it). */
  getCart(id: string, keyId: string): CartView;
  /**
   * Adds `qty` units of a product and prices the cart in one transaction: every rejection or
   * failure, pricing included, leaves the cart unchanged (CART_NOT_FOUND for another key's cart).
   */
  addItem(cartId: string, keyId: string, item: { sku: string; qty: number }): CartView;
  /**
   * Sets the quantity of the cart's line for `sku` (CART_LINE_NOT_FOUND when the cart has none),
   * checked like an add (stock, line limit); a refusal leaves the cart unchanged.
   */
  setItemQuantity(cartId: string, keyId: string, sku: string, qty: number): CartView;
  /** Removes the cart's line for `sku` (CART_LINE_NOT_FOUND when the cart has none). */
  removeItem(cartId: string, keyId: string, sku: string): CartView;
}

/** A cart's lines and, by id, their products with stock. */
interface CartContents {
  lines: CartLineRecord[];
  products: Map<string, StockedProduct>;
}

export function createCartService(deps: {
  carts: CartStore;
  catalogStore: CatalogStore;
  catalog: CatalogService;
  clock: () => Date;
  newCartId: () => string;
}): CartService {
  const { carts, catalogStore, catalog, clock } = deps;

  /** The cart if `keyId` owns it; another key's cart answers exactly like a missing one. */
  function findOwnCart(id: string, keyId: string): CartRecord {
    const cart = carts.findCart(id);
    if (!cart || cart.keyId !== keyId) throw new CommerceError('CART_NOT_FOUND', `There is no cart ${id}.`);
    return cart;
  }

  /** The cart's lines and their products (with stock), read once for a change and its answer. */
  function readContents(cart: CartRecord): CartContents {
    const lines = carts.listLines(cart.id);
    const ids = lines.map((l) => l.productId);
    return { lines, products: new Map(catalogStore.listProductsByIds(ids).map((p) => [p.id, p])) };
  }

  /** The cart priced now, from `contents` when the caller has just read (or changed) them. */
  function priceCart(cart: CartRecord, contents: CartContents = readContents(cart)): CartView {
    const context = catalog.loadContext(cart.channelCode, cart.customerId);
    const { lines, products } = contents;
    const ids = lines.map((l) => l.productId);
    const prices = Map.groupBy(catalogStore.listPrices(cart.channelCode, ids), (r) => r.productId);
    const views = lines.map((line): CartLineView => {
      const product = products.get(line.productId);
      if (!product) throw new Error(`cart line refers to missing product ${line.productId}`);
      const entry = { product, prices: prices.get(product.id) ?? [] };
      const unitPrice = isSellable(entry, context)
        ? catalog.priceEntry(entry, context, { quantity: line.qty })
        : null;
      const total = unitPrice ? multiplySplit(unitPrice, line.qty) : null;
      return { productId: product.id, sku: product.sku, name: product.name, qty: line.qty, unitPrice, total };
    });
    const totals = sumSplits(views.flatMap((v) => (v.total ? [v.total] : [])));
    return { cart, context, lines: views, totals: { ...totals, currency: context.channel.currency } };
  }

  /** The product of the cart's line for `sku` (CART_LINE_NOT_FOUND when the cart has none). */
  function findLineProduct(cart: CartRecord, contents: CartContents, sku: string): StockedProduct {
    const line = contents.lines.find((l) => contents.products.get(l.productId)?.sku === sku);
    const product = line && contents.products.get(line.productId);
    if (!product) throw new CommerceError('CART_LINE_NOT_FOUND', `Cart ${cart.id} has no line for ${sku}.`);
    return product;
  }

  /**
   * Sets a line's quantity to `qty` and prices the cart; runs inside the caller's transaction, so
   * any throw rolls back. The answer is priced from what was read before the write: only this
   * line's quantity and the cart's time changed, so reading the lines and products again would
   * find nothing new.
   */
  function setQuantityAtomically(cart: CartRecord, sku: string, qty: number): CartView {
    assertOpen(cart);
    const contents = readContents(cart);
    const product = findLineProduct(cart, contents, sku);
    const { available } = product.stock;
    if (qty > available) {
      throw new CommerceError(
        'INSUFFICIENT_STOCK',
        `Only ${available} of ${sku} available; the line would need ${qty}.`,
        { available, requested: qty },
      );
    }
    const at = clock().toISOString();
    carts.setLineQuantity(cart.id, product.id, qty);
    carts.touchCart(cart.id, at);
    const lines = contents.lines.map((l) => (l.productId === product.id ? { ...l, qty } : l));
    return priceCart({ ...cart, updatedAt: at }, { lines, products: contents.products });
  }

  /** Checks and saves the line; runs inside the caller's transaction, so any throw rolls back. */
  function addItemAtomically(cart: CartRecord, sku: string, qty: number): void {
    const cartId = cart.id;
    assertOpen(cart);
    const product = catalogStore.findProductBySku(sku);
    if (!product) throw new CommerceError('UNKNOWN_PRODUCT', `There is no product ${sku}.`);
    const context = catalog.loadContext(cart.channelCode, cart.customerId);
    const entry = { product, prices: catalogStore.listPrices(cart.channelCode, [product.id]) };
    if (!isSellable(entry, context)) {
      throw new CommerceError(
        'NOT_SOLD_IN_CHANNEL',
        `Product ${sku} is not sold in channel ${cart.channelCode}.`,
      );
    }
    const lines = carts.listLines(cartId);
    const existing = lines.find((l) => l.productId === product.id);
    const lineQty = (existing?.qty ?? 0) + qty;
    if (lineQty > MAX_LINE_QUANTITY) {
      throw new CommerceError(
        'LINE_QUANTITY_LIMIT',
        `A cart line holds at most ${MAX_LINE_QUANTITY} units; this line would hold ${lineQty}.`,
        { maxQuantity: MAX_LINE_QUANTITY },
      );
    }
    if (!existing && lines.length >= MAX_CART_LINES) {
      throw new CommerceError('CART_LINE_LIMIT', `A cart holds at most ${MAX_CART_LINES} products.`, {
        maxLines: MAX_CART_LINES,
      });
    }
    const { available } = product.stock;
    if (lineQty > available) {
      throw new CommerceError(
        'INSUFFICIENT_STOCK',
        `Only ${available} of ${sku} available; the line would need ${lineQty}.`,
        { available, requested: lineQty },
      );
    }
    // Price the line (VAT included) before writing it: a pricing failure must leave no line behind.
    if (!catalog.priceEntry(entry, context, { quantity: lineQty })) {
      throw new Error(`sellable product ${sku} has no price for quantity ${lineQty}`);
    }
    const at = clock().toISOString();
    if (existing) carts.setLineQuantity(cartId, product.id, lineQty);
    else carts.insertLine(cartId, product.id, lineQty, at);
    carts.touchCart(cartId, at);
  }

  return {
    createCart(input) {
      const context = catalog.loadContext(input.channelCode, input.customerId);
      const at = clock().toISOString();
      const cart: CartRecord = {
        id: deps.newCartId(),
        channelCode: context.channel.code,
        customerId: context.customer?.id ?? null,
        keyId: input.keyId,
        createdAt: at,
        updatedAt: at,
        checkedOutAt: null,
      };
      carts.insertCart(cart);
      return priceCart(cart);
    },
    getCart(id, keyId) {
      return priceCart(findOwnCart(id, keyId));
    },
    addItem(cartId, keyId, item) {
      return carts.atomically(() => {
        addItemAtomically(findOwnCart(cartId, keyId), item.sku, item.qty);
        return priceCart(findOwnCart(cartId, keyId));
      });
    },
    setItemQuantity(cartId, keyId, sku, qty) {
      return carts.atomically(() => setQuantityAtomically(findOwnCart(cartId, keyId), sku, qty));
    },
    removeItem(cartId, keyId, sku) {
      return carts.atomically(() => {
        const cart = findOwnCart(cartId, keyId);
        assertOpen(cart);
        const product = findLineProduct(cart, readContents(cart), sku);
        carts.deleteLine(cart.id, product.id);
        carts.touchCart(cart.id, clock().toISOString());
        return priceCart(findOwnCart(cartId, keyId));
      });
    },
  };
}
