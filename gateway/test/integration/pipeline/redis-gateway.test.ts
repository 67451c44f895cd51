import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import request from 'supertest';
import { createLogger } from '../../../src/http/logger.ts';
import { generateToken } from '../../../src/keys/token.ts';
import type { Actor } from '../../../src/model/model.ts';
import { type OpenedGateway, openGateway } from '../../../src/open-gateway.ts';
import { eventually } from '../../store.contract.ts';
import { redisGatewayConfig } from '../../support/redis-gateway.ts';
import { startRedis, type TestRedis } from '../../support/redis-server.ts';
import { startEchoUpstream, type TestUpstream } from '../../support/upstream.ts';

const ADMIN: Actor = { type: 'admin', id: 'adm_test' };
const ORIGIN = { sourceIp: null };
const STALENESS_MS = 3000;

/** A clock that follows real time plus an offset the test can move forward. */
function createShiftedClock() {
  const clock = () => Date.now() + clock.offsetMs;
  clock.offsetMs = 0;
  return clock;
}

/** Two gateway instances built as main.ts builds them, sharing one Redis, one signing key and one clock. */
async function startInstances(redis: TestRedis, upstream: TestUpstream, env: Record<string, string> = {}) {
  const config = await redisGatewayConfig(redis, upstream, {
    KEYGATE_REDIS_STALENESS_MS: String(STALENESS_MS),
    KEYGATE_REDIS_CONNECT_TIMEOUT_MS: '2000',
    ...env,
  });
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const clock = createShiftedClock();
  const logger = createLogger('info', sink);
  const a = await openGateway(config, { logger, clock });
  const b = await openGateway(config, { logger, clock });
  return { a, b, clock, log: () => lines.join('') };
}

describe('gateway instances sharing Redis (built as main.ts builds them)', function () {
  this.timeout(30_000);
  let redis: TestRedis;
  let upstream: TestUpstream;
  let a: OpenedGateway;
  let b: OpenedGateway;
  let clock: ReturnType<typeof createShiftedClock>;
  let log: () => string;

  beforeEach(async () => {
    redis = await startRedis();
    upstream = await startEchoUpstream('live');
    ({ a, b, clock, log } = await startInstances(redis, upstream));
  });
  afterEach(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await upstream?.close();
    await redis?.stop();
  });

  const get = (instance: OpenedGateway, token: string, path = '/v2/catalog/products') =>
    request(instance.gateway.app).get(path).set('Authorization', `Bearer ${token}`);
  const createKey = (scopes: string[]) =>
    a.keyService.createKey(ADMIN, { name: 'k', environment: 'live', scopes }, ORIGIN);

  describe('with a key revoked through instance A', () => {
    it('is refused by instance B on its very next request', async () => {
      const { key, secret } = await createKey(['article:r']);
      assert.equal((await get(b, secret)).status, 200);
      await a.keyService.revokeKey(ADMIN, key.id, ORIGIN);
      const res = await get(b, secret);
      assert.equal(res.status, 401);
      assert.equal(res.body.code, 'KEY_REVOKED');
      const metrics = (await request(b.gateway.app).get('/metrics')).text;
      assert.match(metrics, /keygate_key_version_checks_total\{result="current"\} 1/);
      assert.match(metrics, /keygate_redis_up 1/);
    });
  });

  describe('with Redis killed, then restarted', () => {
    it('serves verified keys within the staleness bound, fails closed after it, and recovers', async () => {
      const admin = await createKey(['auth:rw', 'article:r']);
      const user = await createKey(['article:r']);
      const unseen = await createKey(['article:r']);
      assert.equal((await get(a, admin.secret, '/v2/auth/keys')).status, 200);
      assert.equal((await get(a, user.secret)).status, 200);
      b.gateway.recorder.record({
        requestId: 'req_outage',
        keyId: user.key.id,
        secretId: 'sec_x',
        method: 'GET',
        path: '/v2/catalog/products',
        status: 200,
        latencyMs: 1,
        clientIp: '127.0.0.1',
        atMs: clock(),
      });
      await redis.kill();

      const started = Date.now();
      assert.equal((await get(a, user.secret)).status, 200, 'a verified key keeps working');
      assert.ok(Date.now() - started < 1000, 'and does not wait for Redis');
      assert.equal((await get(a, unseen.secret)).status, 503, 'a key never seen here gets 503');
      const change = await request(a.gateway.app)
        .post(`/v2/auth/keys/${user.key.id}/scopes`)
        .set('Authorization', `Bearer ${admin.secret}`)
        .send({ scopes: ['article:r', 'order:r'] });
      assert.equal(change.status, 503, JSON.stringify(change.body));
      assert.equal(change.body.code, 'STORE_UNAVAILABLE');
      const ready = await request(a.gateway.app).get('/readyz');
      assert.equal(ready.status, 503);
      assert.equal(ready.body.checks.store, 'fail');
      const metrics = (await request(a.gateway.app).get('/metrics')).text;
      assert.match(metrics, /keygate_redis_up 0/);
      assert.match(metrics, /keygate_rate_limiter_fallback 1/);
      assert.match(metrics, /keygate_rate_limiter_fallback_total [1-9]/);
      assert.match(metrics, /keygate_redis_errors_total\{operation="readKeyVersion"\} [1-9]/);
      assert.match(metrics, /keygate_key_version_checks_total\{result="stale"\} [1-9]/);
      await b.gateway.recorder.flush();
      assert.deepEqual(
        b.gateway.recorder.pending(),
        { buckets: 1, logs: 1 },
        'a failed flush keeps its data',
      );

      clock.offsetMs = STALENESS_MS + 1000;
      const closed = await get(a, user.secret);
      assert.equal(closed.status, 503, 'past the bound: fail closed');
      assert.equal(closed.body.code, 'STORE_UNAVAILABLE');

      // The test server restarts empty: recovery is shown with a key created after it.
      await redis.restart();
      let fresh: Awaited<ReturnType<typeof createKey>> | undefined;
      assert.ok(
        await eventually(async () => {
          fresh ??= await createKey(['article:r']).catch(() => undefined);
          return fresh !== undefined && (await get(b, fresh.secret)).status === 200;
        }, 10_000),
        'changes and calls succeed again without reopening anything',
      );
      assert.equal((await request(a.gateway.app).get('/readyz')).status, 200);
      assert.ok(await eventually(async () => log().includes('dropped every cached key state'), 5000));
      assert.equal((await get(a, user.secret)).status, 401, 'state cached before the outage is not trusted');
      await a.keyService.revokeKey(ADMIN, fresh!.key.id, ORIGIN);
      assert.equal((await get(b, fresh!.secret)).status, 401);
      await b.gateway.recorder.flush();
      assert.deepEqual(b.gateway.recorder.pending(), { buckets: 0, logs: 0 });
    });
  });

  describe('with KEYGATE_REDIS_CIRCUIT_TIMEOUTS=1 and Redis frozen (SIGSTOP)', () => {
    const redisUp = async (instance: OpenedGateway) => {
      const text = (await request(instance.gateway.app).get('/metrics')).text;
      return /^keygate_redis_up (\d)/m.exec(text)?.[1];
    };

    it('fails fast after one command timeout instead of three, then recovers once a probe answers', async () => {
      await Promise.all([a.close(), b.close()]);
      ({ a, b } = await startInstances(redis, upstream, {
        KEYGATE_REDIS_COMMAND_TIMEOUT_MS: '200',
        KEYGATE_REDIS_CIRCUIT_TIMEOUTS: '1',
        KEYGATE_REDIS_CIRCUIT_PROBE_MS: '50',
      }));
      assert.equal(await redisUp(a), '1');
      redis.signal('SIGSTOP');
      try {
        // A well-formed token nobody holds: its lookup has to ask Redis, which does not answer.
        const refused = await get(a, generateToken('live').token);
        assert.equal(refused.status, 503, refused.text);
        assert.ok(
          await eventually(async () => (await redisUp(a)) === '0', 2000),
          'one timeout opened the circuit',
        );
      } finally {
        redis.signal('SIGCONT');
      }
      assert.ok(await eventually(async () => (await redisUp(a)) === '1', 3000), 'the probe closed it again');
    });
  });
});
