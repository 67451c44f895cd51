import assert from 'node:assert/strict';
import { createServer as createHttpServer, Server as HttpServer, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer, type Server } from 'node:net';
import request from 'supertest';
import { startTestGateway, type TestGateway } from '../../support/gateway.ts';
import { seedKey } from '../../support/keys.ts';
import { closedPortUrl, startEchoUpstream, type TestUpstream } from '../../support/upstream.ts';

/** A TCP upstream that answers every request with `head` (bytes as given), then closes. */
async function startRawUpstream(head: string): Promise<{ url: string; server: Server }> {
  const server = createServer((socket) => {
    socket.on('error', () => {});
    socket.once('data', () => socket.end(head, 'latin1'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('key pipeline: upstream failures', () => {
  let gw: TestGateway;
  let hanging: TestUpstream | undefined;
  let raw: Server | undefined;
  afterEach(async () => {
    await gw.stop();
    await hanging?.close();
    hanging = undefined;
    // An HTTP upstream's open connections go too (one a failed test left holding would keep it open).
    if (raw instanceof HttpServer) raw.closeAllConnections();
    await new Promise((resolve) => (raw ? raw.close(resolve) : resolve(undefined)));
    raw = undefined;
  });

  describe('GET /v2/catalog/products when the upstream resets a reused keep-alive socket', () => {
    it('sends the call once more on a fresh connection and answers 200', async () => {
      let resets = 0;
      raw = createServer((socket) => {
        socket.on('error', () => {});
        let answered = 0;
        let head = '';
        socket.setEncoding('latin1');
        socket.on('data', (chunk: string) => {
          head += chunk;
          if (!head.includes('\r\n\r\n')) return;
          head = '';
          // The first request on a connection is answered; a second one finds it closing (a reset).
          if (answered++ === 0) {
            socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}');
          } else {
            resets++;
            socket.resetAndDestroy();
          }
        });
      });
      await new Promise<void>((resolve) => raw!.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
      gw = await startTestGateway({ upstreamUrls: { live: url } });
      const { token } = await seedKey(gw.store, gw.hasher);
      for (let i = 0; i < 2; i++) {
        const res = await request(gw.app).get('/v2/catalog/products').set('Authorization', `Bearer ${token}`);
        assert.equal(res.status, 200, `call ${i + 1}`);
      }
      assert.equal(resets, 1, 'the second call found the reused socket reset');
    });
  });

  describe('GET /v2/catalog/products with the upstream breaking off mid-body', () => {
    it('cuts the client off and records the call as 502 (upstream unavailable), not 499', async () => {
      const upstream = await startRawUpstream('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n1234567');
      raw = upstream.server;
      gw = await startTestGateway({ upstreamUrls: { live: upstream.url } });
      const { token } = await seedKey(gw.store, gw.hasher);
      const cut = await request(gw.app)
        .get('/v2/catalog/products')
        .set('Authorization', `Bearer ${token}`)
        .then(
          () => null,
          (error: Error) => error,
        );
      assert.ok(cut, 'the client must not get a complete answer');
      for (let turn = 0; turn < 10_000 && gw.recorder.pending().logs === 0; turn++) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      await gw.recorder.flush();
      assert.equal(gw.store.logs[0]?.status, 502);
      const metrics = (await request(gw.app).get('/metrics')).text;
      assert.match(
        metrics,
        /keygate_requests_total\{rule="GET \/v2\/catalog\/products",environment="live",status="502"\} 1/,
      );
      assert.match(metrics, /keygate_upstream_duration_seconds_count\{[^}]*outcome="unavailable"[^}]*\} 1/);
    });
  });

  describe('GET /v2/catalog/products with an upstream status line node:http cannot relay', () => {
    for (const [label, head, status] of [
      ['status 099', 'HTTP/1.1 099 Odd\r\nContent-Length: 0\r\n\r\n', 502],
      ['status 000', 'HTTP/1.1 000 Zero\r\nContent-Length: 0\r\n\r\n', 502],
      [
        'a control byte in a header value',
        'HTTP/1.1 200 OK\r\nX-A: a\x01b\r\nContent-Length: 2\r\n\r\n{}',
        502,
      ],
      [
        'a 101 protocol switch',
        'HTTP/1.1 101 Switching Protocols\r\nConnection: upgrade\r\nUpgrade: x\r\n\r\n',
        502,
      ],
      ['a control byte in the reason phrase', 'HTTP/1.1 200 O\x01K\r\nContent-Length: 2\r\n\r\n{}', 200],
    ] as const) {
      it(`(${label}) responds ${status === 200 ? '200 with the standard reason phrase' : '502 UPSTREAM_UNAVAILABLE'} and keeps serving`, async () => {
        const upstream = await startRawUpstream(head);
        raw = upstream.server;
        gw = await startTestGateway({ upstreamUrls: { live: upstream.url } });
        const { token } = await seedKey(gw.store, gw.hasher);
        const res = await request(gw.app).get('/v2/catalog/products').set('Authorization', `Bearer ${token}`);
        assert.equal(res.status, status);
        if (status === 200) {
          // The phrase is not relayed: the client gets the standard one.
          assert.equal((res as unknown as { res: { statusMessage: string } }).res.statusMessage, 'OK');
        } else {
          assert.equal(res.body.code, 'UPSTREAM_UNAVAILABLE');
          assert.equal(res.body.instance, res.headers['x-request-id']);
          assert.equal(res.headers['x-a'], undefined);
        }
        const again = await request(gw.app)
          .get('/v2/catalog/products')
          .set('Authorization', `Bearer ${token}`);
        assert.equal(again.status, res.status);
        const health = await request(gw.app).get('/healthz');
        assert.equal(health.status, 200);
      });
    }
  });

  describe('GET /v2/catalog/products', () => {
    describe('with the live upstream refusing connections', () => {
      it('responds 502 UPSTREAM_UNAVAILABLE as problem+json', async () => {
        gw = await startTestGateway({ upstreamUrls: { live: await closedPortUrl() } });
        const { token } = await seedKey(gw.store, gw.hasher);
        const res = await request(gw.app).get('/v2/catalog/products').set('Authorization', `Bearer ${token}`);
        assert.equal(res.status, 502);
        assert.equal(res.body.code, 'UPSTREAM_UNAVAILABLE');
        assert.match(res.headers['content-type'] ?? '', /application\/problem\+json/);
        assert.equal(res.body.instance, res.headers['x-request-id']);
        assert.doesNotMatch(JSON.stringify(res.body), /ECONNREFUSED|127\.0\.0\.1/);
      });
    });

    describe('with the live upstream never answering', () => {
      it('responds 504 UPSTREAM_TIMEOUT after the configured timeout', async () => {
        hanging = await startEchoUpstream('hang', { hang: true });
        gw = await startTestGateway({
          upstreamUrls: { live: hanging.url },
          env: { KEYGATE_UPSTREAM_TIMEOUT_MS: '150' },
        });
        const { token } = await seedKey(gw.store, gw.hasher);
        const res = await request(gw.app).get('/v2/catalog/products').set('Authorization', `Bearer ${token}`);
        assert.equal(res.status, 504);
        assert.equal(res.body.code, 'UPSTREAM_TIMEOUT');
        assert.equal(hanging.seen.length, 1, 'the request did reach the upstream');
        const metrics = await request(gw.app).get('/metrics');
        assert.match(
          metrics.text,
          /keygate_upstream_duration_seconds_count\{[^}]*outcome="timeout"[^}]*\} 1/,
        );
      });
    });

    describe('with every upstream connection busy (KEYGATE_UPSTREAM_CONNECTIONS=1)', () => {
      it('answers a call that waited the whole timeout for a connection with 504, and never sends it', async () => {
        // The upstream streams its answers slowly (a chunk every 50 ms for 900 ms): never silent, never
        // done soon; `?warm` (the key's first call, which verifies it) is answered at once.
        const seen: string[] = [];
        const slow = createHttpServer((req, res) => {
          seen.push(req.url ?? '');
          res.writeHead(200, { 'content-type': 'text/plain' });
          if (req.url?.endsWith('?warm')) return res.end();
          let chunks = 0;
          const tick = setInterval(() => {
            res.write('.');
            if (++chunks === 18) {
              clearInterval(tick);
              res.end();
            }
          }, 50);
        });
        await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
        raw = slow;
        const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
        gw = await startTestGateway({
          upstreamUrls: { live: url },
          env: { KEYGATE_UPSTREAM_TIMEOUT_MS: '300', KEYGATE_UPSTREAM_CONNECTIONS: '1' },
        });
        const { token } = await seedKey(gw.store, gw.hasher);
        const call = (path: string) =>
          request(gw.app).get(path).set('Authorization', `Bearer ${token}`).buffer(true);
        assert.equal((await call('/v2/catalog/products?warm')).status, 200);
        // supertest sends a request once it is awaited (then): started now, awaited later.
        let firstDone = false;
        const first = call('/v2/catalog/products?n=1').then((res) => {
          firstDone = true;
          return res;
        });
        await new Promise((resolve) => setTimeout(resolve, 50));
        const waiting = await call('/v2/catalog/products?n=2');
        assert.equal(waiting.status, 504);
        assert.equal(waiting.body.code, 'UPSTREAM_TIMEOUT');
        assert.equal(firstDone, false, 'answered while the first call still held the connection');
        const done = await first;
        assert.equal(done.status, 200);
        assert.equal(done.text, '.'.repeat(18));
        await new Promise((resolve) => setTimeout(resolve, 100));
        assert.deepEqual(
          seen,
          ['/v2/catalog/products?warm', '/v2/catalog/products?n=1'],
          'the call that timed out waiting was never sent',
        );
        const metrics = (await request(gw.app).get('/metrics')).text;
        assert.match(metrics, /keygate_upstream_duration_seconds_count\{[^}]*outcome="timeout"[^}]*\} 1/);
      });
    });

    describe('with the signer closed while a call is in flight (request binding: signing goes to its worker)', () => {
      it('answers the concurrent call 500 INTERNAL as problem+json and never sends it; the first call completes', async () => {
        const seen: string[] = [];
        let held: ServerResponse | undefined;
        const holding = createHttpServer((req, res) => {
          seen.push(req.url ?? '');
          if (req.url?.endsWith('?hold')) held = res;
          else res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        });
        await new Promise<void>((resolve) => holding.listen(0, '127.0.0.1', resolve));
        raw = holding;
        const url = `http://127.0.0.1:${(holding.address() as AddressInfo).port}`;
        // Request binding: each call is signed for itself, so the second call needs the worker.
        gw = await startTestGateway({
          upstreamUrls: { live: url },
          env: { KEYGATE_IDENTITY_BINDING: 'request' },
        });
        const { token } = await seedKey(gw.store, gw.hasher);
        const call = (path: string) => request(gw.app).get(path).set('Authorization', `Bearer ${token}`);
        assert.equal((await call('/v2/catalog/products')).status, 200);
        // supertest sends a request once it is awaited (then): started now, awaited later.
        const first = call('/v2/catalog/products?hold').then((res) => res);
        while (held === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
        await gw.signer.close();
        // A call while another is in flight is signed off-thread, by the worker that is gone now.
        const second = await call('/v2/catalog/products?second');
        assert.equal(second.status, 500);
        assert.equal(second.body.code, 'INTERNAL');
        assert.match(second.headers['content-type'] ?? '', /application\/problem\+json/);
        assert.equal(second.body.instance, second.headers['x-request-id']);
        held.writeHead(200, { 'content-type': 'application/json' }).end('{"held":true}');
        const done = await first;
        assert.equal(done.status, 200);
        assert.deepEqual(done.body, { held: true });
        assert.deepEqual(
          seen,
          ['/v2/catalog/products', '/v2/catalog/products?hold'],
          'the unsigned call was sent',
        );
      });
    });
  });
});
