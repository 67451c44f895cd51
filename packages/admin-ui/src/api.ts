/** The one way the UI talks to /admin/api: JSON, the session's CSRF token, problem+json errors. */

const API_BASE = '/admin/api';

/** One entry of a validation problem's `errors` member. */
export interface FieldProblem {
  detail: string;
  pointer: string;
}

/** An RFC 9457 problem as the gateway writes it. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code?: string;
  errors?: FieldProblem[];
  retryAfter?: number;
}

/** A refused or failed request, carrying the server's problem details. */
export class ApiError extends Error {
  readonly problem: Problem;
  readonly status: number;

  constructor(problem: Problem) {
    super(problem.detail || problem.title);
    this.problem = problem;
    this.status = problem.status;
  }
}

let csrfToken: string | null = null;
let onSessionEnded: (() => void) | null = null;

/** Remembers the CSRF token of the current session (null after logout). */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** Registers what happens when any call finds the session gone (401 ADMIN_SESSION_REQUIRED). */
export function setSessionEndedHandler(handler: (() => void) | null): void {
  onSessionEnded = handler;
}

type Query = Record<string, string | number | null | undefined>;

/** `/admin/api<path>?<query>` with empty query values left out. */
export function apiUrl(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  }
  const search = params.toString();
  return `${API_BASE}${path}${search ? `?${search}` : ''}`;
}

async function readProblem(res: Response): Promise<Problem> {
  const text = await res.text();
  let body: Partial<Problem> = {};
  try {
    body = JSON.parse(text) as Partial<Problem>;
  } catch {
    // Not JSON (a proxy's error page): fall back to the status line below.
  }
  const retryHeader = Number(res.headers.get('Retry-After'));
  return {
    type: body.type ?? 'about:blank',
    title: body.title ?? (res.statusText || `HTTP ${res.status}`),
    status: body.status ?? res.status,
    detail: body.detail ?? '',
    ...(body.code ? { code: body.code } : {}),
    ...(Array.isArray(body.errors) ? { errors: body.errors } : {}),
    ...(typeof body.retryAfter === 'number'
      ? { retryAfter: body.retryAfter }
      : Number.isFinite(retryHeader) && retryHeader > 0
        ? { retryAfter: retryHeader }
        : {}),
  };
}

/** Options of one API call. */
export interface RequestOptions {
  query?: Query;
  body?: unknown;
  /** False for the session probe at start-up, which must not announce "session ended". */
  reportSessionEnd?: boolean;
}

/** Calls the admin API and returns the JSON answer (undefined for 204); throws ApiError on 4xx/5xx. */
export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && method !== 'HEAD' && csrfToken) headers['X-CSRF-Token'] = csrfToken;
  let res: Response;
  try {
    res = await fetch(apiUrl(path, options.query), {
      method,
      headers,
      credentials: 'same-origin',
      cache: 'no-store',
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    });
  } catch {
    throw new ApiError({
      type: 'about:blank',
      title: 'Gateway unreachable',
      status: 0,
      detail: 'The request did not reach the gateway. Check your connection and try again.',
    });
  }
  if (!res.ok) {
    const problem = await readProblem(res);
    if (problem.code === 'ADMIN_SESSION_REQUIRED' && options.reportSessionEnd !== false) onSessionEnded?.();
    throw new ApiError(problem);
  }
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}
