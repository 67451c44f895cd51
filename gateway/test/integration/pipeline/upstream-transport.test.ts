import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { type AddressInfo, connect, createServer as createTcpServer, type Socket } from 'node:net';
import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import { IDENTITY_HEADER } from '@keygate/identity';
import request from 'supertest';
import { startTestGateway, type TestGateway } from '../../support/gateway.ts';
import { seedKey } from '../../support/keys.ts';
import { listenOnce } from '../../support/raw-socket.ts';

const fixture = (name: string) =>
  readFileSync(new URL(`../../fixtures/tls/${name}`, import.meta.url), 'latin1');
/** A self-signed certificate for 127.0.0.1 (P-256, valid until 2126), made for these tests only. */
const UPSTREAM_CERT = fixture('upstream-cert.pem');
const UPSTREAM_KEY = fixture('upstream-key.pem');

/** An HTTPS upstream on 127.0.0.1 that answers `{}` and remembers what it was sent, and over what. */
async function startHttpsUpstream() {
  const seen: Array<{ url: string; headers: IncomingHttpHeaders; encrypted: boolean }> = [];
  const server: HttpsServer = createHttpsServer({ cert: UPSTREAM_CERT, key: UPSTREAM_KEY }, (req, res) => {
    seen.push({
      url: req.url ?? '',
      headers: req.headers,
      encrypted: (req.socket as { encrypted?: boolean }).encrypted === true,
    });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  server.on('tlsClientError', () => {});
  const { port, close } = await listenOnce(server);
  return { url: `https://127.0.0.1:${port}`, seen, close };
}

describe('key pipeline: the connection to the upstream', () => {
  let gw: TestGateway | undefined;
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await gw?.stop();
    gw = undefined;
    for (const close of closers.splice(0)) await close();
  });

  describe('GET /v2/catalog/products to an HTTPS upstream', () => {
    const systemCAs = getCACertificates('default');
    afterEach(() => setDefaultCACertificates(systemCAs));

    it('sends the call over TLS with the signed identity when the certificate is trusted', async () => {
      // What NODE_EXTRA_CA_CERTS does for a deployment: the upstream's CA joins the trusted ones.
      setDefaultCACertificates([...systemCAs, UPSTREAM_CERT]);
      const upstream = await startHttpsUpstream();
      closers.push(upstream.close);
      gw = await startTestGateway({ upstreamUrls: { live: upstream.url } });
      const { token } = await seedKey(gw.store, gw.hasher);
      const res = await request(gw.app)
        .get('/v2/catalog/products?page=2')
        .set('Authorization', `Bearer ${token}`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, {});
      assert.equal(upstream.seen.length, 1);
      const [seen] = upstream.seen;
      assert.equal(seen!.encrypted, true);
      assert.equal(seen!.url, '/v2/catalog/products?page=2');
      assert.equal(seen!.headers.host, new URL(upstream.url).host);
      assert.match(String(seen!.headers[IDENTITY_HEADER]), /^[\w-]+\.[\w-]+\.[\w-]+$/, 'a signed JWT');
      assert.equal(seen!.headers.authorization, undefined, 'the API key stays at the gateway');
    });

    it('answers 502 UPSTREAM_UNAVAILABLE and sends nothing when the certificate is not trusted', async () => {
      const upstream = await startHttpsUpstream();
      closers.push(upstream.close);
      gw = await startTestGateway({ upstreamUrls: { live: upstream.url } });
      const { token } = await seedKey(gw.store, gw.hasher);
      const res = await request(gw.app).get('/v2/catalog/products').set('Authorization', `Bearer ${token}`);
      assert.equal(res.status, 502);
      assert.equal(res.body.code, 'UPSTREAM_UNAVAILABLE');
      assert.equal(upstream.seen.length, 0, 'no request reached an upstream the gateway cannot verify');
    });
  });

  describe('a large answer to a client that reads slowly', () => {
    const MiB = 1024 * 1024;
    const BODY = 96 * MiB;

    it('holds the upstream back while the client does not read, then delivers every byte', async function () {
      this.timeout(60_000);
      /** Bytes the upstream's socket has taken so far (it writes only as fast as it may). */
      let written = 0;
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const big = createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': BODY });
        const pump = () => {
          while (written < BODY) {
            written += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        pump();
      });
      const upstream = await listenOnce(big);
      closers.push(upstream.close);
      gw = await startTestGateway({ upstreamUrls: { live: `http://127.0.0.1:${upstream.port}` } });
      const { token } = await seedKey(gw.store, gw.hasher);
      const listening = await listenOnce(gw.app);
      closers.push(listening.close);

      const client: Socket = connect(listening.port, '127.0.0.1');
      await once(client, 'connect');
      client.pause();
      client.write(
        `GET /v2/catalog/products HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`,
      );
      // Let the upstream write as much as the path will take while the client reads nothing.
      let stalledAt = -1;
      for (let waited = 0; waited < 5_000; waited += 100) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        if (written === stalledAt) break;
        stalledAt = written;
      }
      assert.ok(written > 0, 'the upstream started answering');
      // Socket buffers on both sides hold some megabytes; without backpressure the gateway would
      // take the whole 96 MiB into memory.
      assert.ok(
        written < BODY / 2,
        `the upstream wrote ${(written / MiB).toFixed(1)} MiB before the client read`,
      );

      let received = 0;
      client.on('data', (data: Buffer) => {
        received += data.length;
      });
      client.resume();
      await once(client, 'end');
      assert.equal(written, BODY);
      const head = received - BODY;
      assert.ok(head > 0 && head < 4096, 'the whole body arrived, after one response head');
    });
  });

  describe('GET /v2/catalog/products to an upstream whose connection never completes', () => {
    it('answers 504 UPSTREAM_TIMEOUT from the configured connect timeout, and the next call the same way', async function () {
      // undici's own connect timeout is 10 s: without the configured 300 ms this test runs out of time.
      this.timeout(8_000);
      // A TCP server that takes the connection but never answers the TLS handshake: undici's connect
      // (which ends with the handshake for https) waits on it until its connect timeout.
      const sockets = new Set<Socket>();
      const silent = createTcpServer((socket) => {
        sockets.add(socket);
        socket.on('error', () => {});
      });
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      closers.push(
        () =>
          new Promise((resolve) => {
            for (const socket of sockets) socket.destroy();
            silent.close(() => resolve());
          }),
      );
      const url = `https://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      gw = await startTestGateway({
        upstreamUrls: { live: url },
        env: { KEYGATE_UPSTREAM_TIMEOUT_MS: '300' },
      });
      const { token } = await seedKey(gw.store, gw.hasher);
      const call = () => request(gw!.app).get('/v2/catalog/products').set('Authorization', `Bearer ${token}`);
      const res = await call();
      assert.equal(res.status, 504);
      assert.equal(res.body.code, 'UPSTREAM_TIMEOUT');
      assert.match(res.headers['content-type'] ?? '', /application\/problem\+json/);
      assert.ok(sockets.size >= 1, 'the gateway did open a connection to the upstream');
      const metrics = await request(gw.app).get('/metrics');
      assert.match(metrics.text, /keygate_upstream_duration_seconds_count\{[^}]*outcome="timeout"[^}]*\} 1/);
      // The next call is answered the same way: a stuck connect leaves nothing behind that blocks it.
      assert.equal((await call()).status, 504);
    });
  });
});
