import { EVENT_TYPES, type EventType, isEventType, TEST_EVENT_TYPE } from '@keygate/contracts/commerce';
import type { Environment } from '@keygate/identity';
import type { Customer, ProductImage } from '../catalog/types.ts';
import type { OrderJson, OrderStatus } from '../orders/order-types.ts';
import type { PriceRowJson } from '../prices/price-json.ts';

export { EVENT_TYPES, type EventType, isEventType, TEST_EVENT_TYPE };

// The payload shapes of the events whose types @keygate/contracts lists.

export interface StockLevelJson {
  onHand: number;
  allocated: number;
  /** onHand − allocated. */
  available: number;
}

/** What changed a stock level: a PUT, an adjustment, or an order's allocation, release or shipment. */
export type StockChangeReason = 'set' | 'adjusted' | 'order.placed' | 'order.cancelled' | 'order.fulfilled';

export interface StockEventData {
  sku: string;
  productId: string;
  reason: StockChangeReason;
  /** The order behind an `order.*` reason, else null. */
  orderId: string | null;
  old: StockLevelJson;
  new: StockLevelJson;
}

/** `data` of each event type. */
export interface EventPayloads {
  'order.created': { order: OrderJson };
  'order.status_changed': {
    orderId: string;
    oldStatus: OrderStatus;
    newStatus: OrderStatus;
    order: OrderJson;
  };
  /** Every change of a product's onHand or allocated quantity. */
  'stock.updated': StockEventData;
  /** Available went from above zero to zero (sent after the matching stock.updated). */
  'stock.out_of_stock': StockEventData;
  /** Available went from zero to above zero (sent after the matching stock.updated). */
  'stock.back_in_stock': StockEventData;
  'customer.created': { customer: Customer };
  /** `changed` lists the fields whose value differs between old and new. */
  'customer.updated': { customerId: string; changed: string[]; old: Customer; new: Customer };
  'customer.tier_changed': { customerId: string; oldTier: string; newTier: string; customer: Customer };
  /** `changed` lists the fields whose value differs between old and new (today only `images`). */
  'product.updated': {
    productId: string;
    sku: string;
    changed: Array<'images'>;
    old: { images: ProductImage[] };
    new: { images: ProductImage[] };
  };
  'pricing.price.created': { price: PriceRowJson };
  'pricing.price.updated': { priceId: string; old: PriceRowJson; new: PriceRowJson };
  'pricing.price.deleted': { price: PriceRowJson };
  /** `old` is null when the country had no rate for the tax class before. */
  'pricing.vat_rate.updated': {
    country: string;
    taxClass: string;
    old: { rateBp: number } | null;
    new: { rateBp: number };
  };
}

/** The body of every webhook request. */
export interface EventEnvelope<T extends string = string, D = unknown> {
  id: string;
  type: T;
  createdAt: string;
  environment: Environment;
  data: D;
}

/** The test event's `data`. */
export interface TestEventData {
  endpointId: string;
  message: string;
}
