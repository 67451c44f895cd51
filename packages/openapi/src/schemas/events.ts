import { type EventType, TEST_EVENT_TYPE } from '@keygate/contracts/commerce';
import { z } from 'zod';
import { responseComponent } from '../registries.ts';
import { OrderSchema, OrderStatusSchema } from './carts.ts';
import { ProductImageSchema } from './catalog.ts';
import { timestamp } from './common.ts';
import { CustomerSchema, CustomerTierSchema } from './customers.ts';
import { PriceSchema } from './prices.ts';
import { StockLevelSchema } from './stock.ts';

const StockEventDataSchema = responseComponent(
  'StockEventData',
  z.object({
    sku: z.string(),
    productId: z.string(),
    reason: z.enum(['set', 'adjusted', 'order.placed', 'order.cancelled', 'order.fulfilled']),
    orderId: z.string().nullable().meta({ description: 'The order behind an `order.*` reason, else null.' }),
    old: StockLevelSchema,
    new: StockLevelSchema,
  }),
);

/** `data` of every subscribable event type; the Record type makes the compiler demand each one. */
const EVENT_DATA: Record<EventType, z.ZodType> = {
  'order.created': z.object({ order: OrderSchema }),
  'order.status_changed': z.object({
    orderId: z.string(),
    oldStatus: OrderStatusSchema,
    newStatus: OrderStatusSchema,
    order: OrderSchema,
  }),
  'stock.updated': StockEventDataSchema,
  'stock.out_of_stock': StockEventDataSchema,
  'stock.back_in_stock': StockEventDataSchema,
  'customer.created': z.object({ customer: CustomerSchema }),
  'customer.updated': z.object({
    customerId: z.string(),
    changed: z.array(z.string()).meta({ description: 'Fields whose value differs between old and new.' }),
    old: CustomerSchema,
    new: CustomerSchema,
  }),
  'customer.tier_changed': z.object({
    customerId: z.string(),
    oldTier: CustomerTierSchema,
    newTier: CustomerTierSchema,
    customer: CustomerSchema,
  }),
  'product.updated': z.object({
    productId: z.string(),
    sku: z.string(),
    changed: z
      .array(z.enum(['images']))
      .meta({ description: 'Fields whose value differs between old and new (today only `images`).' }),
    old: z.object({ images: z.array(ProductImageSchema) }),
    new: z.object({ images: z.array(ProductImageSchema) }),
  }),
  'pricing.price.created': z.object({ price: PriceSchema }),
  'pricing.price.updated': z.object({ priceId: z.string(), old: PriceSchema, new: PriceSchema }),
  'pricing.price.deleted': z.object({ price: PriceSchema }),
  'pricing.vat_rate.updated': z.object({
    country: z.string().regex(/^[A-Z]{2}$/),
    taxClass: z.string(),
    old: z
      .object({ rateBp: z.number().int() })
      .nullable()
      .meta({ description: 'Null when the country had no rate for the tax class before.' }),
    new: z.object({ rateBp: z.number().int() }),
  }),
};

/** The component name of an event type's envelope: `order.status_changed` → `OrderStatusChangedEvent`. */
export function eventComponentName(type: string): string {
  const words = type.split(/[._]/).map((word) => word.charAt(0).toUpperCase() + word.slice(1));
  return `${words.join('')}Event`;
}

function envelope(type: string, data: z.ZodType) {
  return z.object({
    id: z
      .string()
      .meta({ description: 'Event id (`evt_…`); the same event has the same id on every endpoint.' }),
    type: z.literal(type),
    createdAt: timestamp('When the change happened.'),
    environment: z.enum(['live', 'test']),
    data,
  });
}

/** Every webhook event's envelope schema (registered as `<Name>Event`), keyed by event type. */
export const EVENT_SCHEMAS: ReadonlyMap<string, z.ZodType> = new Map(
  [
    ...Object.entries(EVENT_DATA),
    [TEST_EVENT_TYPE, z.object({ endpointId: z.string(), message: z.string() })] as const,
  ].map(([type, data]) => [type, responseComponent(eventComponentName(type), envelope(type, data))]),
);
