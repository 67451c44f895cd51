import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect } from 'node:net';
import fc from 'fast-check';
import { freePort, runNode, type Service, startService, tempDir } from '../support/processes.ts';

/**
 * A real gateway process before a recording upstream, fed thousands of malformed requests over raw
 * sockets: it must stay up, never answer 5xx, answer every error as problem+json, and never let a
 * smuggled request reach the upstream.
 */

/**
 * The first final response in `text` (interim 1xx skipped): status, lower-cased headers, body
 * (Content-Length framed; none for HEAD), or null.
 */
function parseResponse(
  text: string,
  isHead = false,
): { status: number; headers: Record<string, string>; body: string } | null {
  while (/^HTTP\/1\.1 1\d\d /.test(text)) text = text.slice(text.indexOf('\r\n\r\n') + 4);
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) return null;
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  const body = text.slice(end + 4);
  if (isHead) return { status: Number(statusLine?.split(' ')[1]), headers, body: '' };
  if (headers['transfer-encoding'] === undefined && Buffer.byteLength(body, 'latin1') < length) return null;
  return { status: Number(statusLine?.split(' ')[1]), headers, body: body.slice(0, length) };
}

/**
 * Writes `text` on a fresh connection (without half-closing it: node:http aborts a request whose
 * client sent FIN) and resolves with everything received until the server closes or 5 s pass.
 */
function exchange(port: number, text: string | Buffer): Promise<string> {
  return new Promise((resolve) => {
    let received = '';
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(text);
    });
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    const timer = setTimeout(() => socket.destroy(), 5000);
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(received);
    });
  });
}

/** Runs `work` over `items`, `concurrency` at a time. */
async function eachLimited<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
}

describe('malformed and smuggled requests against a real gateway', () => {
  let upstream: Server;
  const seen: string[] = [];
  let gateway: Service;
  let dir: { path: string; remove(): void };
  let token: string;
  let port: number;

  before(async () => {
    upstream = createServer((req: IncomingMessage, res) => {
      seen.push(`${req.method} ${req.url}`);
      req.resume();
      req.on('end', () => res.end('{"ok":true}'));
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const upstreamUrl = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;
    dir = tempDir();
    port = await freePort();
    const env = {
      KEYGATE_DATA_DIR: dir.path,
      GATEWAY_PORT: String(port),
      KEYGATE_UPSTREAM_LIVE: upstreamUrl,
      KEYGATE_UPSTREAM_TEST: upstreamUrl,
      KEYGATE_DEFAULT_RATE_LIMIT: '100000',
      KEYGATE_KEY_MAX_CONCURRENT: '1000',
    };
    gateway = await startService({ name: 'gateway', script: 'gateway/src/main.ts', port, env });
    const created = await runNode(
      'gateway/src/cli.ts',
      ['keys', 'create', '--name', 'fuzz', '--env', 'live', '--scopes', 'article:r,order:rw', '--json'],
      env,
    );
    assert.equal(created.code, 0, created.stderr);
    token = (JSON.parse(created.stdout) as { secret: string }).secret;
  });
  after(async () => {
    await gateway?.stop();
    await new Promise((r) => upstream.close(r));
    dir?.remove();
  });

  it('answers 2,000 generated malformed requests without a crash, a 5xx or an error that is not problem+json', async () => {
    const token64 = () => token;
    const method = fc.oneof(
      fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'CONNECT', 'get'),
      fc.stringMatching(/^[A-Z!#$%&'*+.^_`|~-]{1,12}$/),
    );
    const pathPart = fc.oneof(
      fc.constantFrom(
        '/v2/channels',
        '/v2/catalog/products',
        '/v2/carts',
        '/v2/graphql',
        '/v2/auth/keys',
        '/v2/catalog/products/%2e%2e/x',
        '/v2/../admin',
        '/v2//channels',
        '/v1/channels',
        '/v2/carts/%2fx',
        '/v2/channels#frag',
        '*',
        'http://evil/v2/channels',
      ),
      fc.stringMatching(/^\/v2\/[\x21-\x7e]{0,60}$/),
    );
    const authorization = fc.oneof(
      fc.constant(`Authorization: Bearer ${token64()}\r\n`),
      fc.constant(`Authorization: Bearer ${token64()}\r\nAuthorization: Bearer ${token64()}\r\n`),
      fc.constant(`Authorization: Bearer ${token64().slice(0, -1)}x\r\n`),
      fc.stringMatching(/^[\x20-\x7e]{0,80}$/).map((value) => `Authorization: ${value}\r\n`),
      fc.constant(''),
    );
    const header = fc.oneof(
      fc.constantFrom(
        'X-Keygate-Key-Id: key_admin',
        'X-Forwarded-For: 10.0.0.1',
        'Content-Type: application/json;;;',
        'Content-Type: text/plain',
        'Expect: 200-ok',
        'Expect: 100-continue',
        'Connection: close, content-length',
        'Content-Encoding: gzip',
        'Accept: */*',
      ),
      fc
        .tuple(fc.stringMatching(/^[A-Za-z-]{1,20}$/), fc.stringMatching(/^[\x20-\x7e]{0,60}$/))
        .map(([name, value]) => `${name}: ${value}`),
    );
    const body = fc.oneof(
      fc.jsonValue().map((value) => JSON.stringify(value)),
      fc.string({ maxLength: 200 }),
      fc.constant(''),
    );
    const request = fc
      .tuple(method, pathPart, authorization, fc.array(header, { maxLength: 4 }), body, fc.boolean())
      .map(([verb, path, auth, headers, content, withHost]) => {
        const length = Buffer.byteLength(content, 'latin1');
        const lines = [...(withHost ? ['Host: gw'] : []), ...headers, 'Connection: close'];
        const framing = length > 0 ? `Content-Length: ${length}\r\n` : '';
        return `${verb} ${path} HTTP/1.1\r\n${auth}${lines.join('\r\n')}\r\n${framing}\r\n${content}`;
      });
    const requests = fc.sample(request, { numRuns: 2000, seed: 22 });
    const statuses: Record<number, number> = {};
    const failures: string[] = [];
    await eachLimited(requests, 16, async (text) => {
      const response = parseResponse(
        await exchange(port, Buffer.from(text, 'latin1')),
        text.startsWith('HEAD '),
      );
      if (!response) {
        failures.push(`no response to ${JSON.stringify(text.slice(0, 200))}`);
        return;
      }
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      if (response.status >= 500)
        failures.push(`${response.status} for ${JSON.stringify(text.slice(0, 200))}`);
      const isHead = text.startsWith('HEAD ');
      if (
        response.status >= 400 &&
        !/^application\/problem\+json/.test(response.headers['content-type'] ?? '')
      ) {
        failures.push(`${response.status} without problem+json for ${JSON.stringify(text.slice(0, 200))}`);
      } else if (response.status >= 400 && !isHead) {
        const problem = JSON.parse(response.body) as { status?: number };
        if (problem.status !== response.status)
          failures.push(`problem.status ${problem.status} ≠ ${response.status}`);
      }
    });
    assert.deepEqual(failures.slice(0, 10), [], `statuses: ${JSON.stringify(statuses)}`);
    assert.ok(
      Object.keys(statuses).some((status) => Number(status) < 300),
      'some requests got through',
    );
    assert.equal(gateway.child.exitCode, null, 'the gateway is still running');
    assert.equal((await fetch(`${gateway.url}/healthz`)).status, 200);
  });

  describe('smuggling framings over raw sockets', () => {
    const smuggled = 'GET /v2/channels?smuggled=1 HTTP/1.1\r\nHost: gw\r\n\r\n';
    const framings: Array<[string, (auth: string) => string]> = [
      [
        'Content-Length and Transfer-Encoding',
        (a) => `Content-Length: 4\r\nTransfer-Encoding: chunked\r\n${a}\r\n0\r\n\r\n${smuggled}`,
      ],
      [
        'Transfer-Encoding and Content-Length',
        (a) => `Transfer-Encoding: chunked\r\nContent-Length: 4\r\n${a}\r\n0\r\n\r\n${smuggled}`,
      ],
      [
        'two Content-Lengths',
        (a) => `Content-Length: 0\r\nContent-Length: ${smuggled.length}\r\n${a}\r\n${smuggled}`,
      ],
      ['Transfer-Encoding: xchunked', (a) => `Transfer-Encoding: xchunked\r\n${a}\r\n0\r\n\r\n${smuggled}`],
      [
        'Transfer-Encoding: chunked, identity',
        (a) => `Transfer-Encoding: chunked, identity\r\n${a}\r\n0\r\n\r\n${smuggled}`,
      ],
      [
        'Transfer-Encoding with a space before the colon',
        (a) => `Transfer-Encoding : chunked\r\n${a}\r\n0\r\n\r\n${smuggled}`,
      ],
      [
        'an obs-folded Transfer-Encoding',
        (a) => `Transfer-Encoding:\r\n chunked\r\n${a}\r\n0\r\n\r\n${smuggled}`,
      ],
      [
        'a chunk size with junk',
        (a) => `Transfer-Encoding: chunked\r\n${a}\r\n4;x\x00\r\nabcd\r\n0\r\n\r\n${smuggled}`,
      ],
      [
        'an oversized chunk size',
        (a) => `Transfer-Encoding: chunked\r\n${a}\r\nfffffffffffffffff\r\n\r\n${smuggled}`,
      ],
      ['a bare LF line ending', (a) => `Content-Length: 0\n${a}\r\n${smuggled}`],
      ['a negative Content-Length', (a) => `Content-Length: -1\r\n${a}\r\n${smuggled}`],
    ];
    for (const [name, framing] of framings) {
      it(`refuses ${name} with 400 problem+json or frames it as one request, never two`, async () => {
        const before = seen.length;
        const text = `POST /v2/carts HTTP/1.1\r\nHost: gw\r\n${framing(`Authorization: Bearer ${token}\r\n`)}`;
        const response = parseResponse(await exchange(port, Buffer.from(text, 'latin1')));
        assert.ok(response, 'answered');
        assert.ok(response.status === 400 || response.status < 300, `status ${response.status}`);
        if (response.status === 400) {
          assert.match(response.headers['content-type'] ?? '', /^application\/problem\+json/);
        }
        await new Promise((r) => setTimeout(r, 200));
        assert.deepEqual(
          seen.slice(before).filter((line) => line.includes('smuggled')),
          [],
          'no smuggled request reached the upstream',
        );
        assert.ok(
          seen.length - before <= 1,
          `one request at most reached the upstream: ${seen.slice(before)}`,
        );
      });
    }
  });
});
