import assert from 'node:assert/strict';
import {
  decideClaim,
  doneRecord,
  fingerprintRequest,
  IDEMPOTENCY_LEASE_MS,
  IDEMPOTENCY_RETENTION_MS,
  isKeptAnswer,
  isValidIdempotencyKey,
  pickReplayedHeaders,
  runningRecord,
} from '../src/idempotency/index.ts';

const T = Date.parse('2026-01-15T12:00:00.000Z');
const answer = { status: 201, headers: {}, body: '{}' };

describe('idempotency rules', () => {
  describe('isValidIdempotencyKey', () => {
    it('accepts 1 to 255 visible ASCII characters and nothing else', () => {
      for (const key of ['a', '~'.repeat(255), '8e0f2b6c-3f0e-4b8a-9d7c-2a1f5c4e6b90', '"quoted"']) {
        assert.equal(isValidIdempotencyKey(key), true, key);
      }
      for (const key of ['', 'a'.repeat(256), 'two words', 'tab\there', 'schlüssel', 'line\n']) {
        assert.equal(isValidIdempotencyKey(key), false, JSON.stringify(key));
      }
    });
  });

  describe('fingerprintRequest', () => {
    it('differs by method, path (with query) and body byte, and not otherwise', () => {
      const base = fingerprintRequest('POST', '/v2/carts', '{"a":1}');
      assert.equal(fingerprintRequest('post', '/v2/carts', Buffer.from('{"a":1}')), base);
      assert.notEqual(fingerprintRequest('PATCH', '/v2/carts', '{"a":1}'), base);
      assert.notEqual(fingerprintRequest('POST', '/v2/carts?x=1', '{"a":1}'), base);
      assert.notEqual(fingerprintRequest('POST', '/v2/carts', '{"a": 1}'), base);
    });
  });

  describe('decideClaim', () => {
    it('runs without a record, and once the record expired', () => {
      assert.deepEqual(decideClaim(null, 'fp', T), { kind: 'run' });
      const done = doneRecord('fp', answer, T);
      assert.equal(decideClaim(done, 'fp', T + IDEMPOTENCY_RETENTION_MS - 1).kind, 'replay');
      assert.equal(decideClaim(done, 'other', T + IDEMPOTENCY_RETENTION_MS).kind, 'run');
    });
    it('answers reused for another fingerprint, whether the first is done or running', () => {
      assert.equal(decideClaim(doneRecord('fp', answer, T), 'other', T).kind, 'reused');
      assert.equal(decideClaim(runningRecord('fp', T), 'other', T).kind, 'reused');
    });
    it('answers in flight while the lease holds, with the seconds left (at least 1), then runs', () => {
      const running = runningRecord('fp', T);
      assert.deepEqual(decideClaim(running, 'fp', T), {
        kind: 'in-flight',
        retryAfterSeconds: IDEMPOTENCY_LEASE_MS / 1000,
      });
      assert.deepEqual(decideClaim(running, 'fp', T + IDEMPOTENCY_LEASE_MS - 1), {
        kind: 'in-flight',
        retryAfterSeconds: 1,
      });
      assert.deepEqual(decideClaim(running, 'fp', T + IDEMPOTENCY_LEASE_MS), { kind: 'run' });
    });
  });

  describe('isKeptAnswer', () => {
    it('keeps 2xx and 4xx but 401, 403 and 429; never a 5xx', () => {
      assert.deepEqual([200, 201, 204, 400, 404, 409, 422, 401, 403, 429, 500, 502, 503].map(isKeptAnswer), [
        true,
        true,
        true,
        true,
        true,
        true,
        true,
        false,
        false,
        false,
        false,
        false,
        false,
      ]);
    });
  });

  describe('pickReplayedHeaders', () => {
    it('keeps what describes the resource, never per-request headers', () => {
      const picked = pickReplayedHeaders({
        'content-type': 'application/json',
        location: '/v2/carts/crt_1',
        'set-cookie': ['a=1'],
        ratelimit: '"per-key";r=1;t=2',
        'x-request-id': 'req_1',
        'retry-after': '3',
      });
      assert.deepEqual(picked, { 'content-type': 'application/json', location: '/v2/carts/crt_1' });
    });
  });
});
