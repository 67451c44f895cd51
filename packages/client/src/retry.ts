import { parseRateLimit, retryAfterMs } from './rate-limit.ts';

/**
 * When a call is sent again, stated once (the PHP and .NET clients follow the same rules):
 *
 * 1. GET, HEAD, OPTIONS, PUT and DELETE (idempotent by RFC 9110 §9.2.2) after 429, 502, 503, 504
 *    and a connection error (no answer).
 * 2. POST and PATCH only with an `Idempotency-Key` (the client adds one to each), after 429, 503
 *    and a connection error, with the same key: the service answers a repeat with the first
 *    result instead of acting twice. Not after 502/504: the first request may still be running,
 *    and its repeat would only meet `IDEMPOTENCY_KEY_IN_USE`.
 * 3. The wait is `Retry-After`, else for a 429 the `RateLimit` reset (a 429 with neither is not
 *    retried), else a backoff of 1 s doubled per retry; all within `maxRetries` and
 *    `maxWaitSeconds`. An aborted signal is never retried.
 * 4. A 429 `QUOTA_EXCEEDED` or `CREDITS_EXHAUSTED` (a budget, not a rate) is retried only when its
 *    `Retry-After` is at most `BUDGET_RETRY_AFTER_LIMIT_SECONDS`: a quota that resets tomorrow, or
 *    credits that nothing refills (no `Retry-After`), come back at once as the error.
 * 5. A POST or PATCH answered 409 `IDEMPOTENCY_KEY_IN_USE` (its first attempt is still running) is
 *    sent again with the same key after `Retry-After` (else the backoff), as Stripe's clients do.
 */
export const RETRIED_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** Methods retried only when the request carries an `Idempotency-Key`. */
export const KEYED_METHODS: ReadonlySet<string> = new Set(['POST', 'PATCH']);

/** Statuses retried for `RETRIED_METHODS`: the rate limit, and a gateway or upstream that may recover. */
export const RETRIED_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** Statuses retried for POST and PATCH with an `Idempotency-Key`. */
export const KEYED_RETRIED_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/** The 429 codes of a spent budget (quota, credits), retried only after a short `Retry-After` (rule 4). */
export const BUDGET_CODES: ReadonlySet<string> = new Set(['QUOTA_EXCEEDED', 'CREDITS_EXHAUSTED']);

/** The longest `Retry-After` a budget 429 is retried after; a longer wait is the caller's to plan. */
export const BUDGET_RETRY_AFTER_LIMIT_SECONDS = 10;

/** The 409 code of a keyed request whose first attempt is still running (rule 5). */
export const IDEMPOTENCY_KEY_IN_USE = 'IDEMPOTENCY_KEY_IN_USE';

/** The first wait after a 502/503/504 without `Retry-After` or a connection error, doubled per retry. */
export const BACKOFF_MS = 1000;

/** How calls are retried. */
export interface RetryOptions {
  /** Retries per call after the first attempt (default 2). */
  maxRetries?: number;
  /**
   * Total seconds one call may spend waiting across its retries (default 60). A retry whose wait
   * would exceed what is left is not made: the answer (or the connection error) comes back at once.
   */
  maxWaitSeconds?: number;
}

/** The defaults of `RetryOptions`. */
export const DEFAULT_RETRY: Required<RetryOptions> = { maxRetries: 2, maxWaitSeconds: 60 };

/** Waits `ms` milliseconds; rejects with the signal's reason as soon as `signal` aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** The fetch signature openapi-fetch calls: a prepared Request and optional extra init. */
export type FetchLike = (request: Request, init?: RequestInit) => Promise<Response>;

/** A timer-based `Sleep` that clears its timer when the signal aborts. */
export const sleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** Milliseconds to wait before retrying a 429: `Retry-After`, else the `RateLimit` reset `t`. */
export function retryDelayMs(headers: Headers, nowMs: number): number | undefined {
  const retryAfter = retryAfterMs(headers, nowMs);
  if (retryAfter !== undefined) return retryAfter;
  const state = parseRateLimit(headers, nowMs);
  return state === undefined ? undefined : state.resetSeconds * 1000;
}

/** What `createRetryingFetch` wraps and how it waits. */
export interface RetryingFetchOptions {
  fetch: FetchLike;
  /** `false` turns retries off. */
  retry: Required<RetryOptions> | false;
  sleep: Sleep;
  now: () => number;
  /** Sees every response, retried ones included, as it arrives. */
  observe?: (response: Response) => void;
}

/** Normalises the client's `retry` option: `true`/undefined → defaults, an object → merged with them. */
export function resolveRetry(retry: boolean | RetryOptions | undefined): Required<RetryOptions> | false {
  if (retry === false) return false;
  if (retry === true || retry === undefined) return DEFAULT_RETRY;
  return { ...DEFAULT_RETRY, ...retry };
}

/** The statuses after which `request` may be sent again (none for a POST/PATCH without a key). */
function retriedStatusesOf(request: Request): ReadonlySet<number> | undefined {
  if (RETRIED_METHODS.has(request.method)) return RETRIED_STATUSES;
  if (KEYED_METHODS.has(request.method) && request.headers.has('Idempotency-Key'))
    return KEYED_RETRIED_STATUSES;
  return undefined;
}

/** The problem `code` of an error answer, read from a copy so the caller still gets the body. */
async function codeOf(response: Response): Promise<string | undefined> {
  try {
    const body = (await response.clone().json()) as { code?: unknown };
    return typeof body?.code === 'string' ? body.code : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Milliseconds to wait before retry `attempt` (0 for the first) after `response`, or undefined
 * when it is not retried; `response` undefined means the connection failed.
 */
async function delayAfter(
  statuses: ReadonlySet<number>,
  response: Response | undefined,
  attempt: number,
  nowMs: number,
): Promise<number | undefined> {
  const backoff = BACKOFF_MS * 2 ** attempt;
  if (response === undefined) return backoff;
  if (response.status === 409 && statuses === KEYED_RETRIED_STATUSES) {
    return (await codeOf(response)) === IDEMPOTENCY_KEY_IN_USE
      ? (retryAfterMs(response.headers, nowMs) ?? backoff)
      : undefined;
  }
  if (!statuses.has(response.status)) return undefined;
  if (response.status === 429) {
    if (BUDGET_CODES.has((await codeOf(response)) ?? '')) {
      const wait = retryAfterMs(response.headers, nowMs);
      return wait !== undefined && wait <= BUDGET_RETRY_AFTER_LIMIT_SECONDS * 1000 ? wait : undefined;
    }
    return retryDelayMs(response.headers, nowMs);
  }
  return retryAfterMs(response.headers, nowMs) ?? backoff;
}

/**
 * Wraps `fetch` so that a request is sent again as the rules above allow, after the delay the
 * gateway asked for (or a backoff); the request's own AbortSignal cuts a wait short. A response
 * that is not retried comes back unchanged; a connection error not retried is thrown.
 */
export function createRetryingFetch(options: RetryingFetchOptions): FetchLike {
  const { fetch, retry, sleep: wait, now, observe } = options;
  return async (first, init) => {
    let request = first;
    let waitedMs = 0;
    const statuses = retry === false ? undefined : retriedStatusesOf(first);
    for (let attempt = 0; ; attempt++) {
      const mayRetry = retry !== false && statuses !== undefined && attempt < retry.maxRetries;
      // A Request body can be read once: keep an unread copy for the next attempt.
      const spare = mayRetry ? request.clone() : undefined;
      let response: Response | undefined;
      let failure: unknown;
      try {
        response = await fetch(request, init);
        observe?.(response);
      } catch (error) {
        if (request.signal.aborted) throw error;
        failure = error;
      }
      const delay =
        spare && statuses && retry !== false
          ? await delayAfter(statuses, response, attempt, now())
          : undefined;
      if (delay === undefined || retry === false || waitedMs + delay > retry.maxWaitSeconds * 1000) {
        if (response) return response;
        throw failure;
      }
      await response?.body?.cancel();
      await wait(delay, request.signal);
      waitedMs += delay;
      request = spare as Request;
    }
  };
}
