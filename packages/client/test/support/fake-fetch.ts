import type { Sleep } from '../../src/index.ts';

/** What the fake server answers: status, headers and an optional JSON (or text) body. */
export interface FakeAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/** A request as the fake server saw it, body read as text. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: Headers;
  body: string;
}

/** A fetch that answers from a script and records every request it receives. */
export interface FakeFetch {
  fetch: (request: Request) => Promise<Response>;
  seen: SeenRequest[];
}

/** Builds a Response for an answer: objects as JSON (problem+json when status ≥ 400), strings as text. */
export function answer({ status, headers = {}, body }: FakeAnswer): Response {
  const all = new Headers(headers);
  if (body === undefined) return new Response(null, { status, headers: all });
  if (typeof body === 'string') return new Response(body, { status, headers: all });
  if (!all.has('content-type')) {
    all.set('content-type', status >= 400 ? 'application/problem+json' : 'application/json');
  }
  return new Response(JSON.stringify(body), { status, headers: all });
}

/** A fake fetch answering the scripted answers in order (an Error is thrown, as fetch does when the connection fails); the last one repeats. */
export function fakeFetch(...answers: (FakeAnswer | Error)[]): FakeFetch {
  const seen: SeenRequest[] = [];
  return {
    seen,
    async fetch(request) {
      seen.push({
        method: request.method,
        url: request.url,
        headers: request.headers,
        body: await request.text(),
      });
      const next = answers[Math.min(seen.length - 1, answers.length - 1)];
      if (!next) throw new Error('fakeFetch: no answer scripted');
      if (next instanceof Error) throw next;
      return answer(next);
    },
  };
}

/** A sleep that records each requested delay and returns at once. */
export function fakeSleep(): { sleep: Sleep; delays: number[] } {
  const delays: number[] = [];
  return {
    delays,
    sleep: async (ms, signal) => {
      signal?.throwIfAborted();
      delays.push(ms);
    },
  };
}

/** A problem+json body as the gateway sends it. */
export function problemBody(code: string, status: number, extensions: Record<string, unknown> = {}) {
  return {
    type: `https://keygate.dev/problems/${code.toLowerCase().replaceAll('_', '-')}`,
    title: code,
    status,
    detail: `${code} happened`,
    code,
    ...extensions,
  };
}

/** The gateway's answer to a key over its limit: 429 with Retry-After and the IETF headers. */
export function rateLimited(retryAfter: number, limit = 3): FakeAnswer {
  return {
    status: 429,
    headers: {
      'retry-after': String(retryAfter),
      'ratelimit-policy': `"per-key";q=${limit};w=60`,
      ratelimit: `"per-key";r=0;t=${retryAfter}`,
    },
    body: problemBody('RATE_LIMITED', 429, { retryAfter }),
  };
}

/** A 200 JSON answer with rate-limit headers showing `remaining` calls left. */
export function ok(body: unknown, remaining = 2, limit = 3): FakeAnswer {
  return {
    status: 200,
    headers: { 'ratelimit-policy': `"per-key";q=${limit};w=60`, ratelimit: `"per-key";r=${remaining};t=30` },
    body,
  };
}

/** What undici's fetch throws when the connection closes before an answer arrives. */
export function connectionReset(): Error {
  return new TypeError('fetch failed', {
    cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
  });
}
