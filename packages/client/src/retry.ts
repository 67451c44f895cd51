import { parseRateLimit, retryAfterMs } from './rate-limit.ts';

/**
 * Methods retried after a 429: the idempotent ones of RFC 9110 §9.2.2, where sending the same
 * request twice has the effect of sending it once. POST and PATCH are never retried.
 */
export const RETRIED_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** How idempotent calls are retried after a 429. */
export interface RetryOptions {
  /** Retries per call after the first attempt (default 2). */
  maxRetries?: number;
  /**
   * Total seconds one call may spend waiting across its retries (default 60). A 429 whose wait
   * would exceed what is left is returned at once, without waiting.
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

/**
 * Wraps `fetch` so a 429 on an idempotent request is retried after the delay the gateway asked
 * for, within `maxRetries` and `maxWaitSeconds`; the request's own AbortSignal cuts a wait short.
 * Any other response, and every 429 on POST/PATCH, is returned unchanged.
 */
export function createRetryingFetch(options: RetryingFetchOptions): FetchLike {
  const { fetch, retry, sleep: wait, now, observe } = options;
  return async (first, init) => {
    let request = first;
    let waitedMs = 0;
    for (let attempt = 0; ; attempt++) {
      const mayRetry = retry !== false && RETRIED_METHODS.has(request.method) && attempt < retry.maxRetries;
      // A Request body can be read once: keep an unread copy for the next attempt.
      const spare = mayRetry ? request.clone() : undefined;
      const response = await fetch(request, init);
      observe?.(response);
      if (response.status !== 429 || !spare || retry === false) return response;
      const delay = retryDelayMs(response.headers, now());
      if (delay === undefined || waitedMs + delay > retry.maxWaitSeconds * 1000) return response;
      await response.body?.cancel();
      await wait(delay, request.signal);
      waitedMs += delay;
      request = spare;
    }
  };
}
