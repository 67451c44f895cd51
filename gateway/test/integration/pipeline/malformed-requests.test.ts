import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { Router } from 'express';
import request from 'supertest';
import { createLogger } from '../../../src/http/logger.ts';
import { startTestGateway, type TestGateway } from '../../support/gateway.ts';
import { seedKey } from '../../support/keys.ts';

/** A logger at debug level whose parsed lines land in `lines` (access lines come several to a write). */
function capturingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: createLogger('debug', sink), lines };
}

/** A keys router stand-in whose routes throw what Express, the router or a body parser may throw. */
function throwingRouter(): Router {
  const router = Router();
  router.get('/status-400', () => {
    throw Object.assign(new Error('Failed to decode param'), { status: 400 });
  });
  router.get('/status-code-415', () => {
    throw Object.assign(new Error('unsupported charset "UTF-7"'), { statusCode: 415 });
  });
  router.get('/uri-error', () => {
    decodeURIComponent('%E0%A4%A');
  });
  router.get('/:id/status-503', () => {
    throw Object.assign(new Error('pool exhausted'), { status: 503 });
  });
  return router;
}

describe('gateway: malformed requests', () => {
  let gw: TestGateway;
  let log: ReturnType<typeof capturingLogger>;
  beforeEach(async () => {
    log = capturingLogger();
    gw = await startTestGateway({ keysRouter: throwingRouter(), logger: log.logger });
  });
  afterEach(() => gw.stop());

  const errorLines = () => log.lines.filter((line) => (line.level as number) >= 50);

  describe('with malformed percent-encoding in the path', () => {
    it('responds 400 MALFORMED_REQUEST on management and proxied routes, before the key, logged below error', async () => {
      const { token } = await seedKey(gw.store, gw.hasher, { scopes: ['auth:rw', 'article:r'] });
      for (const path of ['/v2/auth/keys/%E0%A4%A', '/v2/catalog/products/%E0%A4%A', '/v2/carts/%zz']) {
        const res = await request(gw.app).get(path).set('Authorization', `Bearer ${token}`);
        assert.equal(res.status, 400, path);
        assert.equal(res.body.code, 'MALFORMED_REQUEST');
        assert.match(res.headers['content-type'] ?? '', /application\/problem\+json/);
      }
      assert.equal(gw.live.seen.length + gw.test.seen.length, 0);
      assert.equal(gw.hasher.verifications, 0);
      assert.deepEqual(errorLines(), []);
      assert.ok(log.lines.some((line) => line.code === 'MALFORMED_REQUEST' && line.level === 20));
    });
  });

  describe('with a token in X-Request-Id and a refused key', () => {
    it('logs the client request id with the token redacted', async () => {
      const { token } = await seedKey(gw.store, gw.hasher, { scopes: ['article:r'] });
      for (const path of ['/v2/catalog/products', '/v2/auth/keys']) {
        const res = await request(gw.app)
          .get(path)
          .set('Authorization', 'Bearer nope')
          .set('X-Request-Id', `trace-${token}`);
        assert.equal(res.status, 401, path);
      }
      const refused = log.lines.filter((line) => line.msg === 'request refused');
      assert.equal(refused.length, 2);
      for (const line of refused) assert.equal(line.clientRequestId, 'trace-kg_live_[redacted]');
      assert.doesNotMatch(JSON.stringify(log.lines), new RegExp(token));
    });
  });

  describe('with an error carrying a 4xx status, or a URIError, thrown below the pipeline', () => {
    it('responds 400 MALFORMED_REQUEST, not 500, and logs no error', async () => {
      const { token } = await seedKey(gw.store, gw.hasher, { scopes: ['auth:rw'] });
      for (const path of ['status-400', 'status-code-415', 'uri-error']) {
        const res = await request(gw.app)
          .get(`/v2/auth/keys/${path}`)
          .set('Authorization', `Bearer ${token}`);
        assert.equal(res.status, 400, path);
        assert.equal(res.body.code, 'MALFORMED_REQUEST');
      }
      assert.deepEqual(errorLines(), []);
    });

    it('still answers other errors with 500 INTERNAL and logs them as errors, tokens in the path redacted', async () => {
      const { token } = await seedKey(gw.store, gw.hasher, { scopes: ['auth:rw'] });
      const res = await request(gw.app)
        .get(`/v2/auth/keys/${token}/status-503`)
        .set('Authorization', `Bearer ${token}`);
      assert.equal(res.status, 500);
      assert.equal(res.body.code, 'INTERNAL');
      assert.equal(errorLines().length, 1);
      assert.equal(errorLines()[0]?.path, '/v2/auth/keys/kg_live_[redacted]/status-503');
      assert.doesNotMatch(JSON.stringify(log.lines), new RegExp(token));
    });
  });
});
