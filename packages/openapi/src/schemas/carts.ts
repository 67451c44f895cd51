import { ORDER_STATUSES } from '@keygate/contracts/commerce';
import { z } from 'zod';
import { responseComponent } from '../registries.ts';
import { PriceLevelSchema, UnitPriceSchema } from './catalog.ts';
import { CurrencySchema, money, timestamp, VatSplitSchema } from './common.ts';

/** A cart (`crt_…`) of the key that created it: channel, customer, priced lines and totals. */
export const CartSchema = responseComponent(
  'Cart',
  z.object({
    id: z.string(),
    channel: z.string(),
    currency: CurrencySchema,
    pricesIncludeVat: z.boolean(),
    customerId: z.string().nullable(),
    keyId: z.string().meta({ description: 'The API key that owns the cart (survives rotation).' }),
    lines: z.array(
      z.object({
        sku: z.string(),
        productId: z.string(),
        name: z.string(),
        qty: z.number().int().min(1).max(999),
        unitPrice: UnitPriceSchema.nullable().meta({
          description: 'Unit price at the line quantity (breaks apply); null if no longer sold.',
        }),
        total: VatSplitSchema.nullable().meta({ description: 'unitPrice × qty; null if no longer sold.' }),
      }),
    ),
    totals: VatSplitSchema.extend({ currency: CurrencySchema }),
    createdAt: timestamp(),
    updatedAt: timestamp(),
    checkedOutAt: timestamp()
      .nullable()
      .meta({ description: 'When the cart became an order; null while open.' }),
  }),
);

/** The states of an order. */
export const OrderStatusSchema = responseComponent(
  'OrderStatus',
  z.enum(ORDER_STATUSES).meta({ description: 'placed → cancelled (stock released) or placed → fulfilled.' }),
);

const amounts = { net: money('Minor units.'), vat: money('Minor units.'), gross: money('Minor units.') };

/** An order (`ord_…`) made from a cart at checkout: lines and totals as then priced, and its status. */
export const OrderSchema = responseComponent(
  'Order',
  z.object({
    id: z.string(),
    cartId: z.string(),
    keyId: z.string(),
    status: OrderStatusSchema,
    channel: z.string(),
    customerId: z.string().nullable(),
    currency: CurrencySchema,
    lines: z.array(
      z.object({
        sku: z.string(),
        productId: z.string(),
        name: z.string(),
        qty: z.number().int().min(1),
        unitPrice: z.object({ ...amounts, vatRateBp: z.number().int().min(0), source: PriceLevelSchema }),
        total: z.object(amounts),
      }),
    ),
    totals: z.object(amounts),
    createdAt: timestamp(),
    updatedAt: timestamp(),
  }),
);
