import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildProblem, fieldErrors, problemType, writeProblem } from '../src/index.ts';

describe('problem details', () => {
  it('derives a stable type URI from the code', () => {
    assert.equal(problemType('INSUFFICIENT_SCOPE'), 'https://keygate.dev/problems/insufficient-scope');
  });

  it('keeps extension members next to the standard ones', () => {
    const problem = buildProblem('RATE_LIMITED', 429, 'Too many requests', 'Wait 3 s.', { retryAfter: 3 });
    assert.deepEqual(problem, {
      type: 'https://keygate.dev/problems/rate-limited',
      title: 'Too many requests',
      status: 429,
      detail: 'Wait 3 s.',
      code: 'RATE_LIMITED',
      retryAfter: 3,
    });
  });

  it('turns validation issue paths into JSON pointers', () => {
    const errors = fieldErrors([
      { path: ['scopes', 1], message: 'unknown scope' },
      { path: [], message: 'body must be an object' },
      { path: ['a/b'], message: 'escaped' },
    ]);
    assert.deepEqual(errors, [
      { detail: 'unknown scope', pointer: '/scopes/1' },
      { detail: 'body must be an object', pointer: '' },
      { detail: 'escaped', pointer: '/a~1b' },
    ]);
  });

  it('answers application/problem+json with the status and extra headers', async () => {
    const server = createServer((_req, res) =>
      writeProblem(res, buildProblem('INVALID_KEY', 401, 'Invalid API key', 'no key'), {
        'WWW-Authenticate': 'Bearer',
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/`);
      assert.equal(res.status, 401);
      assert.equal(res.headers.get('content-type'), 'application/problem+json');
      assert.equal(res.headers.get('www-authenticate'), 'Bearer');
      assert.equal(((await res.json()) as { code: string }).code, 'INVALID_KEY');
    } finally {
      server.close();
    }
  });
});
