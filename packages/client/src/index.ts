export {
  type ApiKeySource,
  createKeygateClient,
  type KeygateClient,
  type KeygateClientOptions,
} from './client.ts';
export { IDEMPOTENCY_KEY_HEADER } from './idempotency.ts';
export {
  type DeprecationNotice,
  deprecationOf,
  KEY_EXPIRY_HEADER,
  type KeyExpiryNotice,
  type KeygateNotice,
  keyExpiryOf,
} from './notices.ts';
export type { PagedPath, PageItem, PageOf, Paginate, PaginateInit } from './paginate.ts';
export {
  isProblem,
  type KeygateFieldError,
  type KeygateProblem,
  KeygateProblemError,
  KeygateRateLimitError,
  ProblemCode,
  problemErrorOf,
  toProblem,
  UNEXPECTED_RESPONSE,
  unwrap,
} from './problem.ts';
export { parseRateLimit, type RateLimitState, rateLimitOf, retryAfterMs } from './rate-limit.ts';
export {
  BUDGET_CODES,
  BUDGET_RETRY_AFTER_LIMIT_SECONDS,
  DEFAULT_RETRY,
  type FetchLike,
  KEYED_METHODS,
  KEYED_RETRIED_STATUSES,
  RETRIED_METHODS,
  RETRIED_STATUSES,
  type RetryOptions,
  type Sleep,
} from './retry.ts';
export type { components, operations, paths } from './schema.d.ts';
