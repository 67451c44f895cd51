/**
 * The public contract of the gateway's own API, shared by the gateway, the OpenAPI document
 * (packages/openapi) and the admin interface: the zod schemas the key-management routes validate
 * with, the error table, the route table's schema, the names of the headers the gateway sends and
 * the types of its answers. One module per gateway module the definitions came from.
 */
export * from './alerts.ts';
export * from './analytics.ts';
export * from './deprecation.ts';
export * from './deprecations.ts';
export * from './document-node.ts';
export * from './errors.ts';
export * from './ip-ranges.ts';
export * from './key-input.ts';
export * from './key-rate-limiter.ts';
export * from './lifecycle.ts';
export * from './model.ts';
export * from './outcomes.ts';
export * from './plans.ts';
export * from './public-key.ts';
export * from './query-schemas.ts';
export * from './read-key.ts';
export * from './route-matcher.ts';
export * from './route-table.ts';
export * from './steps.ts';
export * from './store.ts';
export * from './usage-series.ts';
export * from './usage-stats.ts';
