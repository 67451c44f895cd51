import { integerParam, parseFieldList } from './structured-fields.ts';

/**
 * A key's rate-limit state as one response announced it (IETF draft-ietf-httpapi-ratelimit-headers:
 * `RateLimit-Policy: "per-key";q=100;w=60` and `RateLimit: "per-key";r=57;t=23`).
 */
export interface RateLimitState {
  /** Name of the policy the numbers belong to, e.g. `per-key`. */
  policy: string;
  /** Calls allowed per window (`q`), when the response named the policy. */
  limit: number | null;
  /** Window length in seconds (`w`), when the response named the policy. */
  windowSeconds: number | null;
  /** Calls left in the current window (`r`). */
  remaining: number;
  /** Seconds until the quota resets (`t`). */
  resetSeconds: number;
  /** When the quota resets: `observedAt + resetSeconds`. */
  resetsAt: Date;
  /** `Retry-After` in seconds on a refused (429) call, else null. */
  retryAfterSeconds: number | null;
  /** When the response was received. */
  observedAt: Date;
}

/**
 * Milliseconds a `Retry-After` header asks to wait: integer seconds, or an HTTP date relative to
 * `nowMs` (never negative). Undefined when absent or unreadable.
 */
export function retryAfterMs(headers: Headers, nowMs: number): number | undefined {
  const raw = headers.get('retry-after')?.trim();
  if (!raw) return undefined;
  if (/^\d+$/.test(raw)) return Number(raw) * 1000;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/**
 * Reads the rate-limit headers of a response. When `RateLimit` lists several policies, the one with
 * the fewest calls remaining wins (it is the one that refuses first). Undefined without a usable
 * `RateLimit` header.
 */
export function parseRateLimit(headers: Headers, nowMs: number = Date.now()): RateLimitState | undefined {
  const limits = parseFieldList(headers.get('ratelimit')).filter(
    (item) => integerParam(item, 'r') !== undefined && integerParam(item, 't') !== undefined,
  );
  const tightest = limits.reduce<(typeof limits)[number] | undefined>(
    (best, item) =>
      best === undefined || (integerParam(item, 'r') as number) < (integerParam(best, 'r') as number)
        ? item
        : best,
    undefined,
  );
  if (!tightest) return undefined;
  const policy = parseFieldList(headers.get('ratelimit-policy')).find(
    (item) => item.value === tightest.value,
  );
  const resetSeconds = integerParam(tightest, 't') as number;
  const retryAfter = retryAfterMs(headers, nowMs);
  return {
    policy: tightest.value,
    limit: integerParam(policy, 'q') ?? null,
    windowSeconds: integerParam(policy, 'w') ?? null,
    remaining: integerParam(tightest, 'r') as number,
    resetSeconds,
    resetsAt: new Date(nowMs + resetSeconds * 1000),
    retryAfterSeconds: retryAfter === undefined ? null : Math.ceil(retryAfter / 1000),
    observedAt: new Date(nowMs),
  };
}

const recorded = new WeakMap<Response, RateLimitState>();

/** Parses and remembers the rate-limit state of a response as received at `nowMs`. */
export function recordRateLimit(response: Response, nowMs: number): RateLimitState | undefined {
  const state = parseRateLimit(response.headers, nowMs);
  if (state) recorded.set(response, state);
  return state;
}

/**
 * The rate-limit state a response announced: as the client recorded it on arrival, else parsed
 * now. Use it on `result.response` for per-call state; `client.rateLimit` holds the latest.
 */
export function rateLimitOf(response: Response): RateLimitState | undefined {
  return recorded.get(response) ?? parseRateLimit(response.headers);
}
