import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { startTestGateway, type TestGateway } from '../../support/gateway.ts';
import { seedKey } from '../../support/keys.ts';
import { exchangeRaw, listenOnce } from '../../support/raw-socket.ts';

describe('data plane: request body framing', () => {
  let gw: TestGateway;
  let listening: { port: number; close(): Promise<void> };
  let auth: string;
  beforeEach(async () => {
    gw = await startTestGateway();
    const { token } = await seedKey(gw.store, gw.hasher);
    auth = `Authorization: Bearer ${token}\r\n`;
    listening = await listenOnce(gw.app);
  });
  afterEach(async () => {
    await listening.close();
    await gw.stop();
  });

  describe('GET with a body and `Connection: keep-alive, content-length`', () => {
    it('reaches the upstream as one request carrying the body, never as a smuggled second request', async () => {
      const smuggled =
        'GET /v2/catalog/products?smuggled=1 HTTP/1.1\r\nHost: x\r\nX-Keygate-Key-Id: key_admin\r\n\r\n';
      const res = await exchangeRaw(
        listening.port,
        `GET /v2/catalog/products HTTP/1.1\r\nHost: gw\r\n${auth}Connection: keep-alive, content-length\r\n` +
          `Content-Length: ${smuggled.length}\r\n\r\n${smuggled}`,
      );
      assert.equal(res.status, 200);
      // A second call on a fresh connection: by its answer, anything smuggled would have been seen too.
      const after = await exchangeRaw(
        listening.port,
        `GET /v2/catalog/products?after=1 HTTP/1.1\r\nHost: gw\r\n${auth}Connection: close\r\n\r\n`,
      );
      assert.equal(after.status, 200);
      assert.deepEqual(
        gw.live.seen.map((seen) => seen.url),
        ['/v2/catalog/products', '/v2/catalog/products?after=1'],
      );
      const [first] = gw.live.seen;
      assert.equal(first!.bodyBytes, smuggled.length);
      assert.equal(first!.headers['content-length'], String(smuggled.length));
      assert.ok(first!.headers['x-keygate-identity']);
      assert.notEqual(first!.headers['x-keygate-key-id'], 'key_admin');
    });
  });

  describe('requests node:http refuses before any handler', () => {
    const cases = [
      {
        name: 'a header block over 16 KB',
        text: () => `GET /v2/catalog/products HTTP/1.1\r\nHost: gw\r\nX-Big: ${'a'.repeat(17_000)}\r\n\r\n`,
        status: 431,
        code: 'HEADERS_TOO_LARGE',
      },
      {
        name: '`Expect: 200-ok`',
        text: () => `GET /v2/catalog/products HTTP/1.1\r\nHost: gw\r\n${auth}Expect: 200-ok\r\n\r\n`,
        status: 417,
        code: 'EXPECTATION_FAILED',
      },
      {
        name: 'HTTP/1.1 without Host',
        text: () => `GET /v2/catalog/products HTTP/1.1\r\n${auth}\r\n`,
        status: 400,
        code: 'MALFORMED_REQUEST',
      },
    ];
    for (const { name, text, status, code } of cases) {
      it(`answers ${name} with ${status} ${code} as problem+json and reaches no upstream`, async () => {
        const res = await exchangeRaw(listening.port, text());
        assert.equal(res.status, status);
        assert.match(res.headers['content-type'] ?? '', /application\/problem\+json/);
        const body = JSON.parse(res.body);
        assert.equal(body.code, code);
        assert.equal(body.status, status);
        assert.equal(gw.live.seen.length + gw.test.seen.length, 0);
      });
    }
  });

  describe('two Authorization headers (a live key, then a test key)', () => {
    for (const path of ['/v2/catalog/products', '/v2/auth/keys']) {
      it(`answers 400 MALFORMED_REQUEST on ${path} and reaches no upstream`, async () => {
        const { token: testToken } = await seedKey(gw.store, gw.hasher, { environment: 'test' });
        const res = await exchangeRaw(
          listening.port,
          `GET ${path} HTTP/1.1\r\nHost: gw\r\n${auth}Authorization: Bearer ${testToken}\r\n` +
            'Connection: close\r\n\r\n',
        );
        assert.equal(res.status, 400);
        assert.match(res.headers['content-type'] ?? '', /application\/problem\+json/);
        assert.equal(JSON.parse(res.body).code, 'MALFORMED_REQUEST');
        assert.equal(gw.live.seen.length + gw.test.seen.length, 0);
      });
    }
  });

  describe('POST with a chunked body', () => {
    it('reaches the upstream with framing of its own (chunked, or a Content-Length once the whole body arrived), the body intact', async () => {
      const res = await exchangeRaw(
        listening.port,
        `POST /v2/carts HTTP/1.1\r\nHost: gw\r\n${auth}Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n` +
          '3\r\n{"a\r\n4\r\n":1}\r\n0\r\n\r\n',
      );
      assert.equal(res.status, 200);
      assert.equal(gw.live.seen.length, 1);
      assert.equal(gw.live.seen[0]!.bodyBytes, 7);
      const { headers } = gw.live.seen[0]!;
      const framing = [headers['transfer-encoding'], headers['content-length']];
      assert.ok(
        ['chunked,', ',7'].includes(framing.join(',')),
        `one framing header, stated by the gateway: ${framing.join(',')}`,
      );
    });
  });

  describe('POST with `Transfer-Encoding: gzip, chunked`', () => {
    it('responds 400 MALFORMED_REQUEST and sends nothing upstream', async () => {
      const res = await exchangeRaw(
        listening.port,
        `POST /v2/carts HTTP/1.1\r\nHost: gw\r\n${auth}Transfer-Encoding: gzip, chunked\r\nConnection: close\r\n\r\n` +
          '2\r\n{}\r\n0\r\n\r\n',
      );
      assert.equal(res.status, 400);
      assert.equal(JSON.parse(res.body).code, 'MALFORMED_REQUEST');
      assert.equal(gw.live.seen.length, 0);
    });
  });

  describe('a request node:http cannot parse (Content-Length beside Transfer-Encoding)', () => {
    it('responds 400 MALFORMED_REQUEST as problem+json, closes the connection and sends nothing upstream', async () => {
      const res = await exchangeRaw(
        listening.port,
        `POST /v2/carts HTTP/1.1\r\nHost: gw\r\n${auth}Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n` +
          '2\r\n{}\r\n0\r\n\r\n',
      );
      assert.equal(res.status, 400);
      assert.equal(res.headers['content-type'], 'application/problem+json');
      assert.equal(res.headers.connection, 'close');
      assert.equal(JSON.parse(res.body).code, 'MALFORMED_REQUEST');
      assert.equal(gw.live.seen.length, 0);
    });
  });

  describe('POST with `Expect: 100-continue`', () => {
    it('answers a refused key with 401 and no `100 Continue` first', async () => {
      const res = await exchangeRaw(
        listening.port,
        'POST /v2/carts HTTP/1.1\r\nHost: gw\r\nAuthorization: Bearer kg_live_nope\r\n' +
          'Expect: 100-continue\r\nContent-Length: 2\r\nConnection: close\r\n\r\n',
      );
      assert.equal(res.status, 401);
      assert.equal(gw.live.seen.length, 0);
    });

    it('sends `100 Continue` once the key passed, and no Expect upstream', async () => {
      const body = '{"a":1}';
      const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = httpRequest({
          host: '127.0.0.1',
          port: listening.port,
          method: 'POST',
          path: '/v2/carts',
          agent: false,
          headers: {
            Authorization: auth.slice('Authorization: '.length, -2),
            Expect: '100-continue',
            'Content-Length': String(body.length),
          },
        });
        req.on('continue', () => req.end(body));
        req.on('response', (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        });
        req.on('error', reject);
      });
      assert.equal(answer.status, 200);
      assert.equal(gw.live.seen.length, 1);
      assert.equal(gw.live.seen[0]!.bodyBytes, body.length);
      assert.equal(gw.live.seen[0]!.headers.expect, undefined);
    });
  });
});
