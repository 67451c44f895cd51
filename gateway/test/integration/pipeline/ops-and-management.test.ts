import assert from 'node:assert/strict';
import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import express, { Router } from 'express';
import request from 'supertest';
import { principalOf } from '../../../src/auth/principal.ts';
import { GatewayError } from '../../../src/errors.ts';
import { createLogger } from '../../../src/http/logger.ts';
import { startTestGateway, type TestGateway } from '../../support/gateway.ts';
import { seedKey } from '../../support/keys.ts';
import { closedPortUrl, startEchoUpstream } from '../../support/upstream.ts';

/** Lets the event loop turn until `condition` holds (no fixed sleeps). */
async function until(condition: () => boolean): Promise<void> {
  for (let turn = 0; turn < 10_000 && !condition(); turn++) await new Promise((r) => setImmediate(r));
  assert.ok(condition(), 'condition never held');
}

/** A stand-in for the control plane's keys router: echoes the principal, parses JSON, throws on demand. */
function fakeKeysRouter(): Router {
  const router = Router();
  router.get('/', (_req, res) => {
    const principal = principalOf(res);
    res.json({ keyId: principal.key.id, clientIp: principal.clientIp });
  });
  router.post('/', express.json(), (req, res) => {
    res.status(201).json({ received: req.body });
  });
  router.get('/boom', () => {
    throw new Error('database exploded at /var/lib/secret');
  });
  router.get('/missing', () => {
    throw new GatewayError('KEY_NOT_FOUND', 'No key key_x.');
  });
  return router;
}

describe('gateway: ops endpoints and management mount', () => {
  let gw: TestGateway;
  afterEach(() => gw.stop());

  describe('GET /healthz, /readyz, /.well-known/jwks.json', () => {
    beforeEach(async () => {
      gw = await startTestGateway();
    });

    it('answer without a key', async () => {
      assert.equal((await request(gw.app).get('/healthz')).status, 200);
      const ready = await request(gw.app).get('/readyz');
      assert.equal(ready.status, 200);
      assert.deepEqual(ready.body.failed, []);
      assert.equal(ready.body.checks['commerce/live'], 'ok');
    });

    it('publishes only public key members, cacheable', async () => {
      const res = await request(gw.app).get('/.well-known/jwks.json');
      assert.equal(res.status, 200);
      assert.match(res.headers['cache-control'] ?? '', /public/);
      const [key, ...rest] = res.body.keys;
      assert.equal(rest.length, 0);
      assert.equal(key.d, undefined);
      assert.deepEqual([key.kty, key.crv, key.alg], ['EC', 'P-256', 'ES256']);
      assert.equal(key.kid, gw.publicJwks.keys[0]?.kid);
    });
  });

  describe('GET /readyz with an unreachable upstream and a failing store', () => {
    it('responds 503 with ok/fail per part and latencies, logging the causes instead of sending them', async () => {
      const lines: string[] = [];
      const sink = new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      });
      const closed = await closedPortUrl();
      gw = await startTestGateway({ upstreamUrls: { test: closed }, logger: createLogger('info', sink) });
      const first = await request(gw.app).get('/readyz');
      assert.equal(first.status, 503);
      assert.deepEqual(first.body.failed, ['commerce/test']);
      assert.deepEqual(first.body.checks, { store: 'ok', 'commerce/live': 'ok', 'commerce/test': 'fail' });
      assert.equal(typeof first.body.latencyMs['commerce/test'], 'number');
      gw.store.failing.add('ping');
      const res = await request(gw.app).get('/readyz');
      assert.deepEqual(res.body.failed, ['store', 'commerce/test']);
      assert.equal(res.body.checks.store, 'fail');
      const body = JSON.stringify(res.body);
      for (const leak of [/simulated/, /ECONNREFUSED/, /fetch failed/, new RegExp(new URL(closed).port)]) {
        assert.doesNotMatch(body, leak);
      }
      const log = lines.join('');
      assert.match(log, /"check":"commerce\/test".*ECONNREFUSED/);
      assert.match(log, /"check":"store".*ping failed \(simulated\)/);
    });
  });

  describe('GET /metrics', () => {
    it('counts requests, auth failures, cache use and verifications', async () => {
      gw = await startTestGateway();
      const { token } = await seedKey(gw.store, gw.hasher);
      await request(gw.app).get('/v2/catalog/products').set('Authorization', `Bearer ${token}`);
      await request(gw.app).get('/v2/catalog/products').set('Authorization', `Bearer ${token}`);
      await request(gw.app).get('/v2/catalog/products').set('Authorization', 'Bearer junk');
      const text = (await request(gw.app).get('/metrics')).text;
      assert.match(
        text,
        /keygate_requests_total\{rule="GET \/v2\/catalog\/products",environment="live",status="200"\} 2/,
      );
      assert.match(text, /keygate_auth_failures_total\{reason="MALFORMED_KEY"\} 1/);
      assert.match(text, /keygate_argon2_verifications_total\{result="match"\} 1/);
      assert.match(text, /keygate_auth_cache_lookups_total\{result="hit"\} 1/);
      assert.match(text, /keygate_auth_cache_lookups_total\{result="miss"\} 1/);
    });
  });

  describe('GET /metrics after traffic of every kind', () => {
    it('exposes every documented series', async () => {
      gw = await startTestGateway();
      const { token } = await seedKey(gw.store, gw.hasher, { perMinute: 1 });
      for (let i = 0; i < 2; i++) {
        await request(gw.app).get('/v2/catalog/products').set('Authorization', `Bearer ${token}`);
      }
      await request(gw.app).get('/v2/catalog/products');
      const text = (await request(gw.app).get('/metrics')).text;
      for (const series of [
        /keygate_requests_total\{rule="GET \/v2\/catalog\/products",environment="live",status="200"\} 1/,
        /keygate_requests_total\{rule="GET \/v2\/catalog\/products",environment="live",status="429"\} 1/,
        /keygate_auth_failures_total\{reason="MISSING_KEY"\} 1/,
        /keygate_rate_limited_total 1/,
        /keygate_argon2_verifications_total\{result="match"\} 1/,
        /keygate_auth_cache_lookups_total\{result="hit"\} 1/,
        /keygate_upstream_duration_seconds_bucket\{le="[\d.]+",upstream="[^"]+",environment="live",outcome="response"\} 1/,
        /keygate_upstream_duration_seconds_count\{upstream="[^"]+",environment="live",outcome="response"\} 1/,
        /keygate_usage_flush_failures_total 0/,
      ]) {
        assert.match(text, series);
      }
      assert.doesNotMatch(text, /keygate_redis_up/, 'Redis series appear only on Redis');
    });
  });

  describe('access log', () => {
    /** Starts `gw` with an info logger writing into the returned array, a chunk per write. */
    async function startWithLogSink(): Promise<string[]> {
      const lines: string[] = [];
      const sink = new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      });
      gw = await startTestGateway({ logger: createLogger('info', sink) });
      return lines;
    }

    it('writes one line per request with its request id, status and key id, tokens redacted', async () => {
      const lines = await startWithLogSink();
      const { key, token } = await seedKey(gw.store, gw.hasher);
      const res = await request(gw.app)
        .get(`/v2/catalog/products?leak=${token}`)
        .set('Authorization', `Bearer ${token}`)
        .set('X-Request-Id', `client-${token}`);
      // Access lines leave in chunks, and within ACCESS_FLUSH_MS however few they are.
      const requestLine = () =>
        lines
          .join('')
          .split('\n')
          .filter(Boolean)
          .map((text) => JSON.parse(text))
          .find((entry) => entry.msg === 'request');
      for (let waited = 0; !requestLine() && waited < 2_000; waited += 20) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const line = requestLine();
      assert.ok(line, lines.join(''));
      assert.equal(line.requestId, res.headers['x-request-id']);
      assert.equal(line.status, 200);
      assert.equal(line.keyId, key.id);
      assert.equal(line.rule, 'GET /v2/catalog/products');
      assert.equal(typeof line.latencyMs, 'number');
      assert.doesNotMatch(lines.join(''), new RegExp(token.slice(8)));
    });

    it('hands over the lines it still holds when the gateway closes', async () => {
      const lines = await startWithLogSink();
      const { token } = await seedKey(gw.store, gw.hasher);
      const res = await request(gw.app).get('/v2/catalog/products').set('Authorization', `Bearer ${token}`);
      await gw.close();
      assert.match(
        lines.join(''),
        new RegExp(`"requestId":"${res.headers['x-request-id']}".*"msg":"request"`),
      );
    });
  });

  describe('/v2/auth/keys (management routes)', () => {
    beforeEach(async () => {
      gw = await startTestGateway({ keysRouter: fakeKeysRouter() });
    });

    describe('with a key lacking auth:rw', () => {
      it('responds 403 INSUFFICIENT_SCOPE with requiredScope auth:rw', async () => {
        const { token } = await seedKey(gw.store, gw.hasher, { scopes: ['auth:r', 'article:rw'] });
        const res = await request(gw.app).get('/v2/auth/keys').set('Authorization', `Bearer ${token}`);
        assert.equal(res.status, 403);
        assert.equal(res.body.requiredScope, 'auth:rw');
      });
    });

    describe('with an auth:rw key', () => {
      it('reaches the router with the principal, rate-limit headers and no upstream call', async () => {
        const { key, token } = await seedKey(gw.store, gw.hasher, { scopes: ['auth:rw'], perMinute: 5 });
        const res = await request(gw.app).get('/v2/auth/keys').set('Authorization', `Bearer ${token}`);
        assert.equal(res.status, 200);
        assert.deepEqual(res.body, { keyId: key.id, clientIp: '127.0.0.1' });
        assert.equal(res.headers['ratelimit-policy'], '"per-key";q=5;w=60');
        assert.match(res.headers.ratelimit ?? '', /^"per-key";r=4;t=\d+$/);
        assert.equal(gw.live.seen.length + gw.test.seen.length, 0);
      });

      it('answers malformed JSON with 400 MALFORMED_BODY', async () => {
        const { token } = await seedKey(gw.store, gw.hasher, { scopes: ['auth:rw'] });
        const res = await request(gw.app)
          .post('/v2/auth/keys')
          .set('Authorization', `Bearer ${token}`)
          .set('Content-Type', 'application/json')
          .send('{"name": ');
        assert.equal(res.status, 400);
        assert.equal(res.body.code, 'MALFORMED_BODY');
      });

      it('renders thrown errors as problem+json and hides 5xx causes', async () => {
        const { token } = await seedKey(gw.store, gw.hasher, { scopes: ['auth:rw'] });
        const missing = await request(gw.app)
          .get('/v2/auth/keys/missing')
          .set('Authorization', `Bearer ${token}`);
        assert.equal(missing.status, 404);
        assert.equal(missing.body.code, 'KEY_NOT_FOUND');
        const boom = await request(gw.app).get('/v2/auth/keys/boom').set('Authorization', `Bearer ${token}`);
        assert.equal(boom.status, 500);
        assert.equal(boom.body.code, 'INTERNAL');
        assert.doesNotMatch(JSON.stringify(boom.body), /exploded|secret/);
        const unknown = await request(gw.app)
          .get('/v2/auth/keys/a/b/c')
          .set('Authorization', `Bearer ${token}`);
        assert.equal(unknown.status, 404);
        assert.equal(unknown.body.code, 'ROUTE_NOT_FOUND');
      });
    });
  });

  describe('error logging', () => {
    it('logs a 5xx cause with the request id and never the credentials', async () => {
      const lines: string[] = [];
      const sink = new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      });
      const logger = createLogger('info', sink);
      gw = await startTestGateway({ keysRouter: fakeKeysRouter(), logger });
      const { token } = await seedKey(gw.store, gw.hasher, { scopes: ['auth:rw'] });
      const res = await request(gw.app).get('/v2/auth/keys/boom').set('Authorization', `Bearer ${token}`);
      logger.info({ req: { headers: { authorization: `Bearer ${token}` } }, token }, 'redaction probe');
      const log = lines.join('');
      assert.match(log, new RegExp(`"requestId":"${res.body.instance}"`));
      assert.match(log, /database exploded/);
      assert.match(log, /redaction probe/);
      assert.doesNotMatch(log, new RegExp(token));
    });
  });

  describe('usage recording of a request the client aborts', () => {
    it('records it when the connection closes, with status 499', async () => {
      const hanging = await startEchoUpstream('live', { hang: true });
      gw = await startTestGateway({ upstreamUrls: { live: hanging.url } });
      const server = gw.app.listen(0, '127.0.0.1');
      try {
        await once(server, 'listening');
        const { key, token } = await seedKey(gw.store, gw.hasher, { scopes: ['article:r'] });
        const client = httpRequest({
          host: '127.0.0.1',
          port: (server.address() as AddressInfo).port,
          path: '/v2/catalog/products?page=2',
          headers: { Authorization: `Bearer ${token}` },
        });
        client.on('error', () => {});
        client.end();
        await until(() => hanging.seen.length === 1);
        client.destroy();
        await until(() => gw.recorder.pending().logs === 1);
        await gw.recorder.flush();
        assert.equal(gw.store.logs[0]?.status, 499);
        assert.equal(gw.store.logs[0]?.keyId, key.id);
        assert.equal(gw.store.usage[0]?.[0]?.errors4xx, 1);
        const metrics = (await request(gw.app).get('/metrics')).text;
        assert.match(
          metrics,
          /keygate_requests_total\{rule="GET \/v2\/catalog\/products",environment="live",status="499"\} 1/,
        );
      } finally {
        server.closeAllConnections();
        server.close();
        await hanging.close();
      }
    });
  });

  describe('usage recording', () => {
    it('aggregates calls in memory and writes to the store only on flush', async () => {
      gw = await startTestGateway();
      const { key, secret, token } = await seedKey(gw.store, gw.hasher, { scopes: ['article:r'] });
      for (let i = 0; i < 3; i++) {
        await request(gw.app).get('/v2/catalog/products?page=1').set('Authorization', `Bearer ${token}`);
      }
      await request(gw.app).post('/v2/carts').set('Authorization', `Bearer ${token}`);
      // 'finish' may fire a tick after the client has the response.
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(gw.store.calls.recordUsage ?? 0, 0);
      assert.equal(gw.store.calls.appendLogs ?? 0, 0);
      assert.deepEqual(gw.recorder.pending(), { buckets: 1, logs: 4 });
      await gw.recorder.flush();
      assert.equal(gw.store.calls.recordUsage, 1);
      assert.equal(gw.store.calls.appendLogs, 1);
      const [bucket] = gw.store.usage[0]!;
      assert.equal(bucket?.keyId, key.id);
      assert.equal(bucket?.secretId, secret.id);
      assert.equal(bucket?.calls, 4);
      assert.equal(bucket?.errors4xx, 1);
      assert.equal(
        bucket?.latencyHistogram.reduce((sum, count) => sum + count, 0),
        4,
      );
      assert.equal(gw.store.logs[0]?.path, '/v2/catalog/products?page=1');
      assert.equal(gw.store.logs[3]?.status, 403);
      assert.equal(gw.store.logs[0]?.clientIp, '127.0.0.1');
    });
  });
});
