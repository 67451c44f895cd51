import type { Atomically } from '../atomically.ts';
import { assertOpen, type CartService, type CartView } from '../carts/cart-service.ts';
import type { CartStore } from '../carts/cart-store.ts';
import { CommerceError } from '../errors.ts';
import { recordStockChange } from '../stock/stock-events.ts';
import type { StockRecord, StockStore } from '../stock/stock-store.ts';
import type { EventOutbox } from '../webhooks/outbox.ts';
import type { OrderStore } from './order-store.ts';
import { type OrderLineRecord, type OrderStatus, type OrderView, presentOrder } from './order-types.ts';

/** Which statuses an order may move to from each status; cancelled and fulfilled are final. */
export const ORDER_TRANSITIONS: Record<OrderStatus, readonly OrderStatus[]> = {
  placed: ['cancelled', 'fulfilled'],
  cancelled: [],
  fulfilled: [],
};

/** Orders belong to the key that placed them: for any other key an order does not exist. */
export interface OrderService {
  /**
   * Places an order from the key's cart: prices it, allocates every line's stock with a conditional
   * update (all lines or none: INSUFFICIENT_STOCK with what is available per SKU), marks the cart
   * checked out and records `order.created` and the stock events, all in one transaction.
   */
  checkout(cartId: string, keyId: string): OrderView;
  /** The key's order (ORDER_NOT_FOUND). */
  getOrder(id: string, keyId: string): OrderView;
  /** placed → cancelled (releases the allocation) or → fulfilled (ships it); ORDER_STATUS_CONFLICT otherwise. */
  changeStatus(id: string, keyId: string, to: 'cancelled' | 'fulfilled'): OrderView;
}

interface StockChange {
  before: StockRecord;
  after: StockRecord;
}

export function createOrderService(deps: {
  orders: OrderStore;
  carts: CartService;
  cartStore: CartStore;
  stock: StockStore;
  outbox: EventOutbox;
  atomically: Atomically;
  clock: () => Date;
  newOrderId: () => string;
}): OrderService {
  const { orders, stock, outbox, atomically } = deps;

  function findOwnOrder(id: string, keyId: string): OrderView {
    const view = orders.findOrder(id);
    if (!view || view.order.keyId !== keyId)
      throw new CommerceError('ORDER_NOT_FOUND', `There is no order ${id}.`);
    return view;
  }

  /** Allocates every line or throws INSUFFICIENT_STOCK (the transaction then undoes the others). */
  function allocateLines(cart: CartView): StockChange[] {
    const changes: StockChange[] = [];
    const shortages: Array<{ sku: string; requested: number; available: number }> = [];
    for (const line of cart.lines) {
      const before = stock.findByProductId(line.productId)!;
      if (stock.allocate(line.productId, line.qty)) {
        changes.push({ before, after: stock.findByProductId(line.productId)! });
      } else {
        const available = Math.max(0, before.onHand - before.allocated);
        shortages.push({ sku: line.sku, requested: line.qty, available });
      }
    }
    if (shortages.length > 0) {
      const detail = shortages.map((s) => `${s.sku}: ${s.available} available, ${s.requested} requested`);
      throw new CommerceError('INSUFFICIENT_STOCK', `Not enough stock: ${detail.join('; ')}.`, {
        lines: shortages,
      });
    }
    return changes;
  }

  function toOrderLines(cart: CartView): OrderLineRecord[] {
    return cart.lines.map((line, index) => {
      const unit = line.unitPrice;
      if (!unit || !line.total) {
        throw new CommerceError(
          'NOT_SOLD_IN_CHANNEL',
          `Product ${line.sku} is no longer sold in this channel.`,
          {
            sku: line.sku,
          },
        );
      }
      return {
        lineNo: index + 1,
        productId: line.productId,
        sku: line.sku,
        name: line.name,
        qty: line.qty,
        unitNet: unit.net,
        unitVat: unit.vat,
        unitGross: unit.gross,
        vatRateBp: unit.vatRateBp,
        priceSource: unit.source,
        ...line.total,
      };
    });
  }

  function placeOrder(cartId: string, keyId: string): OrderView {
    const cart = deps.carts.getCart(cartId, keyId);
    assertOpen(cart.cart);
    if (cart.lines.length === 0)
      throw new CommerceError('CART_EMPTY', `Cart ${cartId} has no items to order.`);
    const lines = toOrderLines(cart);
    const changes = allocateLines(cart);
    const at = deps.clock().toISOString();
    const id = deps.newOrderId();
    const { net, vat, gross } = cart.totals;
    const order = {
      id,
      cartId,
      keyId,
      channelCode: cart.cart.channelCode,
      customerId: cart.cart.customerId,
      currency: cart.totals.currency,
      status: 'placed' as const,
      net,
      vat,
      gross,
      createdAt: at,
      updatedAt: at,
    };
    orders.insertOrder(order, lines);
    if (!deps.cartStore.markCheckedOut(cartId, at)) {
      throw new CommerceError('CART_CHECKED_OUT', `Cart ${cartId} was checked out meanwhile.`);
    }
    const view = { order, lines };
    outbox.record('order.created', { order: presentOrder(view) });
    for (const change of changes)
      recordStockChange(outbox, { ...change, reason: 'order.placed', orderId: id });
    return view;
  }

  function moveOrder(id: string, keyId: string, to: 'cancelled' | 'fulfilled'): OrderView {
    const { order, lines } = findOwnOrder(id, keyId);
    const from = order.status;
    if (!ORDER_TRANSITIONS[from].includes(to)) {
      throw new CommerceError('ORDER_STATUS_CONFLICT', `Order ${id} is ${from}; it cannot become ${to}.`, {
        orderStatus: from,
        requestedStatus: to,
      });
    }
    const changes = lines.map((line): StockChange => {
      const before = stock.findByProductId(line.productId)!;
      const done =
        to === 'cancelled'
          ? stock.release(line.productId, line.qty)
          : stock.consume(line.productId, line.qty);
      if (!done)
        throw new Error(`order ${id} holds ${line.qty} of ${line.sku}, but stock has less allocated`);
      return { before, after: stock.findByProductId(line.productId)! };
    });
    if (!orders.updateStatus(id, from, to, deps.clock().toISOString())) {
      throw new Error(`order ${id} changed status inside its own transaction`);
    }
    const updated = orders.findOrder(id)!;
    outbox.record('order.status_changed', {
      orderId: id,
      oldStatus: from,
      newStatus: to,
      order: presentOrder(updated),
    });
    const reason = to === 'cancelled' ? 'order.cancelled' : 'order.fulfilled';
    for (const change of changes) recordStockChange(outbox, { ...change, reason, orderId: id });
    return updated;
  }

  return {
    checkout: (cartId, keyId) => atomically(() => placeOrder(cartId, keyId)),
    getOrder: (id, keyId) => findOwnOrder(id, keyId),
    changeStatus: (id, keyId, to) => atomically(() => moveOrder(id, keyId, to)),
  };
}
