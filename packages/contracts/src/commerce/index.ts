/**
 * The public contract of the commerce API, shared by the service, the OpenAPI document
 * (packages/openapi) and other tools: the zod schemas the routes validate requests with, the
 * error table and the vocabularies responses use. One module per route module of commerce.
 */
export * from './cart-limits.ts';
export * from './carts.ts';
export * from './catalog.ts';
export * from './customers.ts';
export * from './errors.ts';
export * from './event-types.ts';
export * from './media.ts';
export * from './order-types.ts';
export * from './orders.ts';
export * from './prices.ts';
export * from './pricing-types.ts';
export * from './retry-policy.ts';
export * from './stock.ts';
export * from './webhook-endpoints.ts';
