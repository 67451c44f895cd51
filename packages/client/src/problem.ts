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

/** A problem+json answer thrown as an Error (see `unwrap`), with the problem and its response. */
export class KeygateProblemError extends Error {
  override readonly name = 'KeygateProblemError';
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

/** The success branch of an openapi-fetch result. */
type DataOf<R> = Extract<R, { error?: never }> extends { data: infer D } ? D : never;

/**
 * Awaits an openapi-fetch result and returns its `data`, or throws `KeygateProblemError` for an
 * error response. For callers who prefer exceptions to `{ data, error }` results.
 */
export async function unwrap<R extends { data?: unknown; error?: unknown; response: Response }>(
  result: R | Promise<R>,
): Promise<DataOf<R>> {
  const settled = await result;
  if (settled.response.ok) return settled.data as DataOf<R>;
  throw new KeygateProblemError(toProblem(settled.error, settled.response), settled.response);
}
