import 'server-only';
import {
  createKeygateClient,
  type KeygateClient,
  type KeygateProblem,
  retryAfterMs,
  toProblem,
} from '@keygate/client';
import { storefrontEnv } from './env.ts';

/** The longest a page waits for `Retry-After` before it shows the "busy" page instead. */
const MAX_WAIT_MS = 10_000;

let client: KeygateClient | undefined;

/** The one API client of this server; only server code can import this module (`server-only`). */
export function keygate(): KeygateClient {
  if (!client) {
    const env = storefrontEnv();
    // Retries are done below, once, for every method: a 429 comes from the gateway before the
    // request reaches commerce, so even a POST is safe to send again.
    client = createKeygateClient({
      baseUrl: env.KEYGATE_BASE_URL,
      apiKey: env.KEYGATE_API_KEY,
      retry: false,
    });
  }
  return client;
}

/** An API call that failed: the problem it answered and whether it was the rate limit (429). */
export class ApiProblemError extends Error {
  override readonly name = 'ApiProblemError';
  readonly problem: KeygateProblem;
  constructor(problem: KeygateProblem) {
    super(`${problem.status} ${problem.code}: ${problem.detail}`);
    this.problem = problem;
  }
  /** True for the rate limit, which the shop shows as a "busy" page. */
  get isBusy(): boolean {
    return this.problem.status === 429;
  }
}

type Settled<T> = { data?: T; error?: unknown; response: Response };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs an API call and returns its data; on 429 waits `Retry-After` (at most 10 s) and tries once
 * more; any other error, or a second 429, throws ApiProblemError with the API's problem.
 */
export async function call<T>(
  send: () => Promise<Settled<T>>,
  wait: (ms: number) => Promise<void> = sleep,
): Promise<T> {
  let result: Settled<T>;
  try {
    result = await send();
    if (result.response.status === 429) {
      const waitMs = retryAfterMs(result.response.headers, Date.now()) ?? 1000;
      if (waitMs <= MAX_WAIT_MS) {
        await wait(waitMs);
        result = await send();
      }
    }
  } catch (error) {
    throw new ApiProblemError({
      type: 'about:blank',
      title: 'The shop cannot reach its API',
      status: 503,
      code: 'API_UNREACHABLE',
      detail: `The commerce API did not answer (${error instanceof Error ? error.message : String(error)}).`,
    });
  }
  if (result.response.ok) return result.data as T;
  throw new ApiProblemError(toProblem(result.error, result.response));
}

/** A call's outcome for pages: the data, or the problem to show. */
export type Outcome<T> = { ok: true; data: T } | { ok: false; problem: KeygateProblem; busy: boolean };

/** Turns ApiProblemError into an Outcome; anything else is a bug and is rethrown. */
export async function attempt<T>(work: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, data: await work() };
  } catch (error) {
    if (error instanceof ApiProblemError) return { ok: false, problem: error.problem, busy: error.isBusy };
    throw error;
  }
}
