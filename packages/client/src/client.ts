import createClient, { type Client, type ClientOptions, type Middleware } from 'openapi-fetch';
import { createIdempotencyMiddleware } from './idempotency.ts';
import { createNoticeMiddleware, type KeygateNotice } from './notices.ts';
import { createPaginator, type Paginate } from './paginate.ts';
import { type RateLimitState, recordRateLimit } from './rate-limit.ts';
import {
  createRetryingFetch,
  type FetchLike,
  type RetryOptions,
  resolveRetry,
  type Sleep,
  sleep,
} from './retry.ts';
import type { paths } from './schema.d.ts';

/** The bearer key: a token, or a function read before every call (e.g. to pick up a rotated secret). */
export type ApiKeySource = string | (() => string | Promise<string>);

/** Options of `createKeygateClient`; the other openapi-fetch client options pass through. */
export interface KeygateClientOptions extends Omit<ClientOptions, 'baseUrl' | 'fetch'> {
  /** The gateway's origin, e.g. `https://api.example.com` (paths start with `/v2/`). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>` on every call. */
  apiKey: ApiKeySource;
  /**
   * Retries: GET, HEAD, OPTIONS, PUT and DELETE after 429, 502, 503, 504 and connection errors;
   * POST and PATCH (each sent with an `Idempotency-Key`) after 429, 503 and connection errors,
   * with the same key, and after 409 `IDEMPOTENCY_KEY_IN_USE`. Waits `Retry-After` or a backoff;
   * a 429 `QUOTA_EXCEEDED`/`CREDITS_EXHAUSTED` only when its `Retry-After` is at most
   * `BUDGET_RETRY_AFTER_LIMIT_SECONDS` (10). Default `{ maxRetries: 2,
   * maxWaitSeconds: 60 }`; `false` turns retries off.
   */
  retry?: boolean | RetryOptions;
  /** Called once per operation that answers `Deprecation`/`Sunset`, and once per key-expiry notice. */
  onNotice?: (notice: KeygateNotice) => void;
  /** The fetch to send requests with (default `globalThis.fetch`). */
  fetch?: FetchLike;
  /** How to wait before a retry (tests inject a fake; default a timer that honours AbortSignal). */
  sleep?: Sleep;
  /** Clock in milliseconds, for `Retry-After` dates and rate-limit times (default `Date.now`). */
  now?: () => number;
}

/** The typed openapi-fetch client for every documented operation, plus the key's rate-limit state. */
export type KeygateClient = Client<paths> & {
  /** The rate-limit state of the latest response that announced one (undefined before any). */
  readonly rateLimit: RateLimitState | undefined;
  /**
   * Walks every page of a cursor-paged list, yielding its items in order:
   * `for await (const product of client.paginate('/v2/catalog/products', { params }))`.
   */
  readonly paginate: Paginate;
};

/** Sets `Authorization: Bearer <key>` on each request, reading a key function per call. */
function bearerMiddleware(apiKey: ApiKeySource): Middleware {
  return {
    async onRequest({ request }) {
      const token = typeof apiKey === 'function' ? await apiKey() : apiKey;
      if (!token) throw new TypeError('keygate client: apiKey is empty');
      request.headers.set('Authorization', `Bearer ${token}`);
      return request;
    },
  };
}

/**
 * Creates a client for the keygate API: `client.GET('/v2/catalog/products', { params })` and so on,
 * with request bodies, responses and problem+json errors typed from the OpenAPI document. Each
 * result is `{ data, response }` or `{ error, response }` (never thrown; see `unwrap` to throw).
 */
export function createKeygateClient(options: KeygateClientOptions): KeygateClient {
  const { apiKey, retry, onNotice, fetch, sleep: wait = sleep, now = Date.now, ...rest } = options;
  if (!options.baseUrl) throw new TypeError('keygate client: baseUrl is required');
  if (!apiKey) throw new TypeError('keygate client: apiKey is required');
  let latest: RateLimitState | undefined;
  const retrying = createRetryingFetch({
    fetch: fetch ?? ((request, init) => globalThis.fetch(request, init)),
    retry: resolveRetry(retry),
    sleep: wait,
    now,
    observe(response) {
      latest = recordRateLimit(response, now()) ?? latest;
    },
  });
  const client = createClient<paths>({ ...rest, fetch: retrying });
  client.use(bearerMiddleware(apiKey), createIdempotencyMiddleware());
  if (onNotice) client.use(createNoticeMiddleware(onNotice));
  return Object.defineProperties(client, {
    rateLimit: { get: () => latest, enumerable: true },
    paginate: { value: createPaginator(client), enumerable: true },
  }) as KeygateClient;
}
