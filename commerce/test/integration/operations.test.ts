import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import request from 'supertest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { assertProblem } from '../support/problem.ts';

/** A pino logger whose JSON lines land in `lines`. */
function createCapturingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

describe('operations', () => {
  let t: TestApp;
  let captured: ReturnType<typeof createCapturingLogger>;
  beforeEach(async () => {
    captured = createCapturingLogger();
    t = await createTestApp({ environment: 'test', logger: captured.logger });
  });
  afterEach(() => t.close());

  describe('GET /healthz and /readyz', () => {
    it('respond 200 without an identity', async () => {
      const health = await request(t.app).get('/healthz');
      assert.deepEqual(health.body, { status: 'ok', environment: 'test' });
      const ready = await request(t.app).get('/readyz');
      assert.deepEqual(ready.body, { status: 'ready', environment: 'test' });
    });
    it('/readyz responds 503 NOT_READY once the database is gone', async () => {
      t.db.close();
      assertProblem(await request(t.app).get('/readyz'), 503, 'NOT_READY');
      assert.equal((await request(t.app).get('/healthz')).status, 200);
    });
  });

  describe('GET /metrics', () => {
    it('counts requests by route pattern and status, with the environment label', async () => {
      await t.get('/v2/stock/KG-00002');
      await t.get('/v2/stock/NOPE');
      const res = await request(t.app).get('/metrics');
      assert.equal(res.status, 200);
      assert.match(
        res.text,
        /http_requests_total\{method="GET",route="\/v2\/stock\/:sku",status="200",service="commerce",environment="test"\} 1/,
      );
      assert.match(res.text, /route="\/v2\/stock\/:sku",status="404"/);
      assert.match(res.text, /http_request_duration_seconds_bucket/);
    });
  });

  describe('request ids and logs', () => {
    it('echoes a safe X-Request-Id and logs it with the environment on every line', async () => {
      const res = await t.get('/v2/channels', { headers: { 'X-Request-Id': 'gw-req-42' } });
      assert.equal(res.headers['x-request-id'], 'gw-req-42');
      const line = captured.lines.find((l) => l.requestId === 'gw-req-42');
      assert.ok(line);
      assert.equal(line.environment, 'test');
      assert.equal(line.status, 200);
      assert.equal(line.path, '/v2/channels');
      assert.ok(captured.lines.every((l) => l.environment === 'test'));
      await t.get('/v2/channels', { anonymous: true, headers: { 'X-Request-Id': 'gw-req-43' } });
      assert.equal(captured.lines.find((l) => l.requestId === 'gw-req-43')?.path, '/v2/channels');
    });
    it('generates a req_ id when none or an unsafe one is sent', async () => {
      const none = await t.get('/v2/channels');
      assert.match(String(none.headers['x-request-id']), /^req_/);
      const unsafe = await t.get('/v2/channels', { headers: { 'X-Request-Id': 'x y <script>' } });
      assert.match(String(unsafe.headers['x-request-id']), /^req_/);
    });
    it('never logs the identity assertion', async () => {
      await t.get('/v2/channels');
      assert.ok(captured.lines.length > 0);
      assert.ok(!JSON.stringify(captured.lines).includes('eyJ'));
    });
  });

  describe('with an unexpected failure', () => {
    it('responds 500 INTERNAL_ERROR without details and logs the cause with the request id', async () => {
      t.db.close();
      const res = await t.get('/v2/channels', { headers: { 'X-Request-Id': 'boom-1' } });
      const body = assertProblem(res, 500, 'INTERNAL_ERROR');
      assert.doesNotMatch(JSON.stringify(body), /database|sqlite|connection/i);
      const logged = captured.lines.find((l) => l.requestId === 'boom-1' && l.level === 50);
      assert.ok(logged?.err);
    });
  });

  describe('GET /v2/stock/{sku} with malformed percent-encoding', () => {
    it('responds 400 MALFORMED_REQUEST problem+json and logs no error', async () => {
      for (const path of ['/v2/stock/%E0%A4%A', '/v2/carts/%ZZ']) {
        const res = await t.get(path, { headers: { 'X-Request-Id': 'bad-escape' } });
        const body = assertProblem(res, 400, 'MALFORMED_REQUEST');
        assert.match(String(body.detail), /percent-encoding/);
      }
      const lines = captured.lines.filter((l) => l.requestId === 'bad-escape');
      assert.deepEqual(
        lines.filter((l) => l.msg === 'request completed').map((l) => l.status),
        [400, 400],
      );
      assert.ok(
        lines.every((l) => Number(l.level) < 50),
        JSON.stringify(lines),
      );
    });
  });

  describe('unknown routes', () => {
    it('respond 404 ROUTE_NOT_FOUND problem+json, under /v2 and outside it', async () => {
      assertProblem(await t.get('/v2/nope'), 404, 'ROUTE_NOT_FOUND');
      assertProblem(await t.post('/v2/channels', {}), 404, 'ROUTE_NOT_FOUND');
      assertProblem(await request(t.app).get('/nope'), 404, 'ROUTE_NOT_FOUND');
    });
  });

  describe('an oversized body', () => {
    it('responds 413 PAYLOAD_TOO_LARGE', async () => {
      assertProblem(await t.post('/v2/carts', { channel: 'x'.repeat(20_000) }), 413, 'PAYLOAD_TOO_LARGE');
    });
  });
});
