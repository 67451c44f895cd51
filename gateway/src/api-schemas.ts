/**
 * The public contract of the gateway's own API for tools outside the service (the OpenAPI document
 * in packages/openapi): the zod schemas the key-management routes validate with, the error table,
 * the route table's schema and the names of the headers the gateway sends. Re-exports of data only:
 * functions and routers are in `./api-tooling.ts` (`@keygate/gateway/tooling`).
 */
export { EXPIRY_HEADER } from './auth/steps.ts';
export { DEFAULT_ROUTES_FILE } from './config.ts';
export { ERRORS, type ErrorCode, type ErrorSpec } from './errors.ts';
export {
  ChangeScopesInputSchema,
  CloseSecretInputSchema,
  CreateKeyInputSchema,
  DEFAULT_OVERLAP_DAYS,
  OVERLAP_DAYS_MAX,
  RotateKeyInputSchema,
} from './keys/key-input.ts';
export { LATENCY_BUCKETS_MS } from './keys/model.ts';
export { DEFAULT_VIEW_REMINDER_DAYS, MAX_LISTED_SECRETS } from './keys/public-key.ts';
export { MAX_USAGE_RANGE_MS } from './keys/read-key.ts';
export {
  ActivityQuerySchema,
  ListKeysQuerySchema,
  LogsQuerySchema,
  UsageQuerySchema,
} from './keys-api/query-schemas.ts';
export { RATE_LIMIT_WINDOW_SECONDS } from './rate-limit/key-rate-limiter.ts';
export { MANAGEMENT_SCOPE } from './routes/route-matcher.ts';
export {
  MANAGEMENT_PREFIX,
  type RouteEntry,
  type RouteTable,
  RouteTableSchema,
} from './routes/route-table.ts';
