import type { components } from './schema.d.ts';

/** One entry of the `errors` member of a validation problem: what is wrong, and where (JSON pointer). */
export type KeygateFieldError = components['schemas']['FieldError'];

/**
 * An RFC 9457 problem details body as keygate sends it (`application/problem+json`): the
 * document's `Problem` schema (`type`, `title`, `status`, `detail`, `code`, `instance`,
 * `requiredScope`, `retryAfter`, `errors`) plus any other extension member, kept as `unknown`.
 */
export type KeygateProblem = components['schemas']['Problem'] & { [extension: string]: unknown };

/** The `code` of a problem the client makes up when an error response carries no problem body. */
export const UNEXPECTED_RESPONSE = 'UNEXPECTED_RESPONSE';

/** True when `value` has the members every keygate problem has. */
export function isProblem(value: unknown): value is KeygateProblem {
  if (typeof value !== 'object' || value === null) return false;
  const { type, title, status, code } = value as Record<string, unknown>;
  return (
    typeof type === 'string' &&
    typeof title === 'string' &&
    typeof status === 'number' &&
    typeof code === 'string'
  );
}

/**
 * The problem of an error result: its body when that is a problem, else a stand-in with code
 * `UNEXPECTED_RESPONSE` describing what came back (e.g. an HTML page from a proxy in between).
 */
export function toProblem(error: unknown, response: Response): KeygateProblem {
  if (isProblem(error)) return error;
  const text = typeof error === 'string' ? error : error === undefined ? '' : JSON.stringify(error);
  return {
    type: 'about:blank',
    title: response.statusText || `HTTP ${response.status}`,
    status: response.status,
    detail: text ? text.slice(0, 500) : `HTTP ${response.status} without a problem body`,
    code: UNEXPECTED_RESPONSE,
  };
}

/**
 * Problem codes a caller may want to act on, by name (the full list is in the API's error
 * registry). A 429's code says which budget refused the call: `RATE_LIMITED` (a rate: wait and
 * retry), `QUOTA_EXCEEDED` (a day, week or month quota: waits until its reset) or
 * `CREDITS_EXHAUSTED` (the balance: top it up, or wait for its refill when `retryAfter` is set).
 */
export const ProblemCode = {
  RATE_LIMITED: 'RATE_LIMITED',
  QUOTA_EXCEEDED: 'QUOTA_EXCEEDED',
  CREDITS_EXHAUSTED: 'CREDITS_EXHAUSTED',
  IDEMPOTENCY_KEY_IN_USE: 'IDEMPOTENCY_KEY_IN_USE',
  PLAN_NOT_FOUND: 'PLAN_NOT_FOUND',
  IDENTITY_NOT_FOUND: 'IDENTITY_NOT_FOUND',
  PLAN_IN_USE: 'PLAN_IN_USE',
  IDENTITY_HAS_KEYS: 'IDENTITY_HAS_KEYS',
  IDENTITY_EXISTS: 'IDENTITY_EXISTS',
  CREDITS_NOT_HELD: 'CREDITS_NOT_HELD',
} as const;

/** One of the named `ProblemCode`s. */
export type ProblemCode = (typeof ProblemCode)[keyof typeof ProblemCode];

/** A problem+json answer thrown as an Error (see `unwrap`), with the problem and its response. */
export class KeygateProblemError extends Error {
  override readonly name: string = 'KeygateProblemError';
  /** The problem body (or the stand-in for a response that had none). */
  readonly problem: KeygateProblem;
  readonly status: number;
  readonly code: string;
  /** The HTTP response (headers such as `Retry-After` and `RateLimit` are on it). */
  readonly response: Response;

  constructor(problem: KeygateProblem, response: Response) {
    super(`${problem.status} ${problem.code}: ${problem.detail}`);
    this.problem = problem;
    this.status = problem.status;
    this.code = problem.code;
    this.response = response;
  }
}

/**
 * A 429 thrown as an Error: `code` says which budget ran out (`RATE_LIMITED`, `QUOTA_EXCEEDED`,
 * `CREDITS_EXHAUSTED`), `retryAfter` when to try again (undefined when nothing refills), `policy`
 * which limit or quota (its name in `RateLimit-Policy`, e.g. `day`), when the problem names one.
 */
export class KeygateRateLimitError extends KeygateProblemError {
  override readonly name: string = 'KeygateRateLimitError';
  /** Seconds until the limit, quota or balance has room again; undefined when nothing refills. */
  readonly retryAfter: number | undefined;
  /** The refusing limit's or quota's name (`minute`, `day`, `month`, …), when the problem names one. */
  readonly policy: string | undefined;

  constructor(problem: KeygateProblem, response: Response) {
    super(problem, response);
    const header = response.headers.get('retry-after')?.trim();
    this.retryAfter =
      typeof problem.retryAfter === 'number'
        ? problem.retryAfter
        : header && /^\d+$/.test(header)
          ? Number(header)
          : undefined;
    this.policy = typeof problem.policy === 'string' ? problem.policy : undefined;
  }
}

/** The Error for an error answer: `KeygateRateLimitError` for a 429, else `KeygateProblemError`. */
export function problemErrorOf(error: unknown, response: Response): KeygateProblemError {
  const problem = toProblem(error, response);
  return response.status === 429
    ? new KeygateRateLimitError(problem, response)
    : new KeygateProblemError(problem, response);
}

/** The success branch of an openapi-fetch result. */
type DataOf<R> = Extract<R, { error?: never }> extends { data: infer D } ? D : never;

/**
 * Awaits an openapi-fetch result and returns its `data`, or throws `KeygateProblemError` for an
 * error response (`KeygateRateLimitError` for a 429). For callers who prefer exceptions to
 * `{ data, error }` results.
 */
export async function unwrap<R extends { data?: unknown; error?: unknown; response: Response }>(
  result: R | Promise<R>,
): Promise<DataOf<R>> {
  const settled = await result;
  if (settled.response.ok) return settled.data as DataOf<R>;
  throw problemErrorOf(settled.error, settled.response);
}
