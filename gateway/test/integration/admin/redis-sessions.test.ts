import assert from 'node:assert/strict';
import request from 'supertest';
import { openRedisKeyStore, type RedisKeyStore } from '../../../src/store/redis/redis-store.ts';
import { createTestClock } from '../../support/gateway.ts';
import { startRedis, type TestRedis } from '../../support/redis-server.ts';
import { ADMIN_EMAIL, type AdminApp, logIn, read, send, startAdminApp } from './admin-app.ts';

describe('admin sessions on a shared Redis (two gateway instances)', () => {
  let redis: TestRedis;
  let suites = 0;
  before(async () => {
    redis = await startRedis();
  });
  after(async () => {
    await redis?.stop();
  });

  let stores: RedisKeyStore[];
  let a: AdminApp;
  let b: AdminApp;
  beforeEach(async () => {
    const keyPrefix = `${redis.keyPrefix}admin${++suites}:`;
    stores = [
      await openRedisKeyStore(redis.url, { keyPrefix }),
      await openRedisKeyStore(redis.url, { keyPrefix }),
    ];
    const clock = createTestClock(Date.now());
    a = await startAdminApp({ store: stores[0], clock, env: { KEYGATE_ADMIN_LOGIN_MAX_FAILURES: '2' } });
    b = await startAdminApp({ store: stores[1], clock, env: { KEYGATE_ADMIN_LOGIN_MAX_FAILURES: '2' } });
  });
  afterEach(async () => {
    await a.close();
    await b.close();
    await Promise.all(stores.map((store) => store.close()));
  });

  it('a session opened on A works on B; logout on A is refused on B at once', async () => {
    const session = await logIn(a.app);
    const created = await send(b.app, 'post', '/keys', session).send({
      name: 'k',
      environment: 'live',
      scopes: ['auth:rw'],
    });
    assert.equal(created.status, 201);
    assert.equal((await read(a.app, `/keys/${created.body.id}`, session)).status, 200);
    assert.equal((await send(a.app, 'delete', '/session', session)).status, 204);
    assert.equal((await read(b.app, '/session', session)).status, 401);
    assert.equal((await read(b.app, '/keys', session)).status, 401);
  });

  it('keeps the session key in Redis only for its idle time, and slides that TTL', async () => {
    const session = await logIn(a.app);
    const keys = await stores[0]!.client.keys(`${redis.keyPrefix}admin${suites}:admin:session:*`);
    assert.equal(keys.length, 1);
    assert.ok(!keys[0]!.includes(session.cookie.split('=')[1]!), 'the token itself is in the key name');
    const ttl = await stores[0]!.client.pttl(keys[0]!);
    assert.ok(ttl > 29 * 60_000 && ttl <= 30 * 60_000, `ttl ${ttl}`);
    a.clock.now += 10 * 60_000;
    await stores[0]!.client.pexpire(keys[0]!, 60_000);
    assert.equal((await read(b.app, '/session', session)).status, 200);
    assert.ok((await stores[0]!.client.pttl(keys[0]!)) > 29 * 60_000, 'the TTL did not slide');
  });

  it('counts failed logins across instances: throttled on B after failing on A', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await request(a.app)
        .post('/admin/api/session')
        .send({ email: ADMIN_EMAIL, password: 'wrong password!' });
      assert.equal(res.status, 401);
    }
    const res = await request(b.app)
      .post('/admin/api/session')
      .send({ email: ADMIN_EMAIL, password: 'anything at all' });
    assert.equal(res.status, 429);
    assert.ok(Number(res.headers['retry-after']) > 14 * 60);
  });
});
