/**
 * The public contract of the commerce API for tools outside the service (the OpenAPI document in
 * packages/openapi): the zod schemas the routes validate requests with, the error table and the
 * vocabularies responses use. Re-exports only; the routes keep owning their schemas.
 */
export { AddItemSchema, CreateCartSchema } from './carts/cart-routes.ts';
export { MAX_CART_LINES, MAX_LINE_QUANTITY } from './carts/cart-service.ts';
export {
  ChannelHeaderSchema,
  GetProductQuerySchema,
  ListProductsQuerySchema,
} from './catalog/catalog-routes.ts';
export { CreateCustomerSchema, UpdateCustomerSchema } from './customers/customer-routes.ts';
export { type CommerceErrorCode, ERROR_TABLE } from './errors.ts';
export { OrderActionSchema } from './orders/order-routes.ts';
export { ORDER_STATUSES } from './orders/order-types.ts';
export {
  CreatePriceSchema,
  MAX_MIN_QUANTITY,
  MAX_PRICE_AMOUNT,
  ReplacePriceSchema,
  TAX_CLASSES,
  VatRateParamsSchema,
  VatRateSchema,
} from './prices/price-routes.ts';
export { CUSTOMER_TIERS, PRICE_LEVELS } from './pricing/types.ts';
export { AdjustStockSchema, MAX_ON_HAND, SetStockSchema } from './stock/stock-routes.ts';
export {
  CreateEndpointSchema,
  DEFAULT_OVERLAP_HOURS,
  EmptyBodySchema,
  ListDeliveriesQuerySchema,
  MAX_OVERLAP_HOURS,
  RotateSecretSchema,
  TriggerEventSchema,
  UpdateEndpointSchema,
} from './webhooks/endpoint-schemas.ts';
export { EVENT_TYPES, type EventType, TEST_EVENT_TYPE } from './webhooks/event-catalogue.ts';
export {
  DEFAULT_DISABLE_AFTER_MS,
  DEFAULT_JITTER_RATIO,
  DEFAULT_RETRY_SCHEDULE_SECONDS,
} from './webhooks/retry-policy.ts';
