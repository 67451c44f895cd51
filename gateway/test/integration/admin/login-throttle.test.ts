import assert from 'node:assert/strict';
import request from 'supertest';
import { createHeldHasher, type HeldHasher } from '../../support/counting-hasher.ts';
import { ADMIN_EMAIL, ADMIN_PASSWORD, type AdminApp, startAdminApp } from './admin-app.ts';

const MINUTE = 60_000;

/** Resolves once `check()` holds; fails with `what` after `timeoutMs` instead of hanging to mocha's timeout. */
async function until(what: string, check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

describe('/admin/api/session login throttle', () => {
  let a: AdminApp;
  afterEach(async () => {
    await a?.close();
  });

  describe('after too many failed logins', () => {
    beforeEach(async () => {
      a = await startAdminApp({
        env: { KEYGATE_ADMIN_LOGIN_MAX_FAILURES: '3', KEYGATE_TRUSTED_PROXIES: '127.0.0.1' },
      });
    });
    const attempt = (password: string, email = ADMIN_EMAIL, ip = '203.0.113.5') =>
      request(a.app).post('/admin/api/session').set('X-Forwarded-For', ip).send({ email, password });

    it('responds 429 LOGIN_THROTTLED with Retry-After, refuses even the right password, then lets it in after the window', async () => {
      for (let i = 0; i < 3; i++) assert.equal((await attempt('wrong password!')).status, 401);
      const verifications = a.hasher.verifications;
      const throttled = await attempt(ADMIN_PASSWORD);
      assert.equal(throttled.status, 429);
      assert.equal(throttled.body.code, 'LOGIN_THROTTLED');
      assert.equal(throttled.headers['retry-after'], String(15 * 60));
      assert.equal(throttled.body.retryAfter, 15 * 60);
      assert.equal(throttled.headers['set-cookie'], undefined);
      assert.equal(a.hasher.verifications, verifications, 'a throttled login still checked a password');
      a.clock.now += 10 * MINUTE;
      const later = await attempt(ADMIN_PASSWORD, ADMIN_EMAIL, '198.51.100.20');
      assert.equal(later.status, 429, 'another address is throttled too for this email');
      assert.equal(later.headers['retry-after'], String(5 * 60));
      a.clock.now += 5 * MINUTE;
      assert.equal((await attempt(ADMIN_PASSWORD)).status, 201);
    });

    it('throttles an address that failed with several emails, for any email', async () => {
      for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) {
        assert.equal((await attempt('wrong password!', email)).status, 401);
      }
      assert.equal((await attempt(ADMIN_PASSWORD)).status, 429);
      assert.equal((await attempt(ADMIN_PASSWORD, ADMIN_EMAIL, '198.51.100.21')).status, 201);
    });
  });

  describe('with a burst of parallel logins', () => {
    let hasher: HeldHasher;
    beforeEach(async () => {
      hasher = createHeldHasher();
      a = await startAdminApp({
        hasher,
        env: { KEYGATE_ADMIN_LOGIN_MAX_FAILURES: '3', KEYGATE_TRUSTED_PROXIES: '127.0.0.1' },
      });
    });
    let answered: number;
    const attempt = async (email: string, ip: string) => {
      const res = await request(a.app)
        .post('/admin/api/session')
        .set('X-Forwarded-For', ip)
        .send({ email, password: 'guess guess' });
      answered++;
      return res;
    };
    beforeEach(() => {
      answered = 0;
    });

    it('checks no more passwords for one email than failures are allowed, answering the rest 429', async () => {
      const all = Promise.all(
        Array.from({ length: 10 }, (_, i) => attempt(ADMIN_EMAIL, `198.51.100.${i + 1}`)),
      );
      await until('7 logins answered', () => answered === 7);
      assert.equal(hasher.waiting, 3);
      hasher.release();
      const statuses = (await all).map((res) => res.status).sort();
      assert.deepEqual(statuses, [401, 401, 401, 429, 429, 429, 429, 429, 429, 429]);
      assert.equal(hasher.verifications, 3);
    });

    it('runs at most four password checks at once per instance', async () => {
      const all = Promise.all(
        Array.from({ length: 6 }, (_, i) => attempt(`user${i}@example.com`, `198.51.100.${i + 1}`)),
      );
      await until('2 logins answered', () => answered === 2);
      assert.equal(hasher.waiting, 4);
      hasher.release();
      const results = await all;
      assert.deepEqual(results.map((res) => res.status).sort(), [401, 401, 401, 401, 429, 429]);
      assert.equal(results.find((res) => res.status === 429)?.headers['retry-after'], '1');
    });
  });
});
