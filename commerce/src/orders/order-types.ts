import { ORDER_STATUSES, type OrderStatus } from '@keygate/contracts/commerce';
import type { PriceLevel } from '../pricing/types.ts';

export { ORDER_STATUSES, type OrderStatus };

/** A stored order (no lines); money in integer minor units of `currency`. */
export interface OrderRecord {
  id: string;
  cartId: string;
  keyId: string;
  channelCode: string;
  customerId: string | null;
  currency: string;
  status: OrderStatus;
  net: number;
  vat: number;
  gross: number;
  createdAt: string;
  updatedAt: string;
}

/** A stored order line with the unit price it was sold at. */
export interface OrderLineRecord {
  lineNo: number;
  productId: string;
  sku: string;
  name: string;
  qty: number;
  unitNet: number;
  unitVat: number;
  unitGross: number;
  vatRateBp: number;
  priceSource: PriceLevel;
  net: number;
  vat: number;
  gross: number;
}

export interface OrderView {
  order: OrderRecord;
  lines: OrderLineRecord[];
}

/** The JSON shape of an order, in responses and in `order.*` event payloads. */
export interface OrderJson {
  id: string;
  cartId: string;
  keyId: string;
  status: OrderStatus;
  channel: string;
  customerId: string | null;
  currency: string;
  lines: Array<{
    sku: string;
    productId: string;
    name: string;
    qty: number;
    unitPrice: { net: number; vat: number; gross: number; vatRateBp: number; source: PriceLevel };
    total: { net: number; vat: number; gross: number };
  }>;
  totals: { net: number; vat: number; gross: number };
  createdAt: string;
  updatedAt: string;
}

/** Presents an order for JSON responses and event payloads. */
export function presentOrder(view: OrderView): OrderJson {
  const { order } = view;
  return {
    id: order.id,
    cartId: order.cartId,
    keyId: order.keyId,
    status: order.status,
    channel: order.channelCode,
    customerId: order.customerId,
    currency: order.currency,
    lines: view.lines.map((line) => ({
      sku: line.sku,
      productId: line.productId,
      name: line.name,
      qty: line.qty,
      unitPrice: {
        net: line.unitNet,
        vat: line.unitVat,
        gross: line.unitGross,
        vatRateBp: line.vatRateBp,
        source: line.priceSource,
      },
      total: { net: line.net, vat: line.vat, gross: line.gross },
    })),
    totals: { net: order.net, vat: order.vat, gross: order.gross },
    createdAt: order.createdAt,
    updatedAt: order.updatedAt,
  };
}
