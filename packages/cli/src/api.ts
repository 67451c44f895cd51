/** Where the CLI talks to and with which key: a test key only, over HTTP. */
export interface ApiTarget {
  baseUrl: string;
  apiKey: string;
}

/** A refusal or a failure the CLI reports on one line (exit code 2). */
export class CliError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliError';
  }
}

/** Refuses anything but a test key: the sandbox never touches live data. */
export function assertTestKey(apiKey: string | undefined): string {
  if (!apiKey)
    throw new CliError('no API key: set KEYGATE_API_KEY or pass --api-key (a test key, kg_test_…)');
  if (!apiKey.startsWith('kg_test_'))
    throw new CliError('the sandbox CLI works with test keys only (kg_test_…), never a live key');
  return apiKey;
}

/** A call to the gateway with the key. */
export function callApi(target: ApiTarget, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('Authorization', `Bearer ${target.apiKey}`);
  return fetch(new URL(path, target.baseUrl), { ...init, headers });
}

/** The problem+json of a refused call as one line: `403 SANDBOX_ONLY: …`. */
export async function describeRefusal(res: Response): Promise<string> {
  const text = await res.text();
  try {
    const problem = JSON.parse(text) as { code?: string; detail?: string };
    return `${res.status} ${problem.code ?? ''}: ${problem.detail ?? text}`.trim();
  } catch {
    return `${res.status}: ${text.slice(0, 200)}`;
  }
}
