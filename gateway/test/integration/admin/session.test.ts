import assert from 'node:assert/strict';
import request from 'supertest';
import { createHeldHasher, type HeldHasher } from '../../support/counting-hasher.ts';
import { ADMIN_EMAIL, ADMIN_PASSWORD, type AdminApp, logIn, read, send, startAdminApp } from './admin-app.ts';

const MINUTE = 60_000;

const setCookieOf = (res: request.Response): string[] =>
  ([] as string[]).concat(res.headers['set-cookie'] ?? []);

/** Every admin API route, with a path that would otherwise be valid. */
const ROUTES: Array<['get' | 'post' | 'delete', string]> = [
  ['get', '/session'],
  ['delete', '/session'],
  ['get', '/keys'],
  ['post', '/keys'],
  ['get', '/keys/key_x'],
  ['post', '/keys/key_x/scopes'],
  ['post', '/keys/key_x/rotate'],
  ['post', '/keys/key_x/close-old-secret'],
  ['delete', '/keys/key_x'],
  ['get', '/keys/key_x/usage'],
  ['get', '/keys/key_x/usage/series'],
  ['get', '/keys/key_x/logs'],
  ['get', '/keys/key_x/activity'],
  ['get', '/activity'],
  ['get', '/no-such-route'],
];

describe('/admin/api/session', () => {
  let a: AdminApp;
  afterEach(async () => {
    await a?.close();
  });

  describe('POST with the right email and password', () => {
    beforeEach(async () => {
      a = await startAdminApp();
    });

    it('responds 201 with the session and an HttpOnly, SameSite=Strict cookie on /admin, not Secure over plain HTTP', async () => {
      const res = await request(a.app)
        .post('/admin/api/session')
        .send({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
      assert.equal(res.status, 201);
      assert.equal(res.headers['cache-control'], 'no-store');
      const [cookie, ...others] = setCookieOf(res);
      assert.equal(others.length, 0);
      assert.match(
        cookie ?? '',
        /^keygate_admin=[A-Za-z0-9_-]{43}; Path=\/admin; HttpOnly; SameSite=Strict$/,
      );
      assert.deepEqual(res.body.user, { id: a.adminId, email: ADMIN_EMAIL });
      assert.match(res.body.csrfToken, /^[A-Za-z0-9_-]{43}$/);
      assert.equal(res.body.idleTimeoutSeconds, 30 * 60);
      assert.equal(res.body.expiresAt, new Date(a.clock.now + 12 * 3_600_000).toISOString());
      assert.deepEqual(res.body.settings.environments, ['live', 'test']);
      assert.ok(res.body.settings.scopes.includes('auth:rw'));
      assert.ok(res.body.settings.scopes.includes('article:r'));
      assert.equal(res.body.settings.maxOverlapDays, 7);
      assert.equal(res.body.settings.defaultRateLimitPerMinute, 600);
      assert.deepEqual(res.body.settings.expiryReminderDays, [7, 1]);
    });

    it('stores only the SHA-256 of the cookie token', async () => {
      const session = await logIn(a.app);
      const token = session.cookie.split('=')[1]!;
      const { createHash } = await import('node:crypto');
      const stored = await a.store.getAdminSession(createHash('sha256').update(token).digest('hex'));
      assert.equal(stored?.userId, a.adminId);
      assert.equal(await a.store.getAdminSession(token), null);
    });

    it('logs the email and client IP at info, never the password or the cookie', async () => {
      const session = await logIn(a.app);
      await read(a.app, '/session', session);
      const line = a.logs.map((text) => JSON.parse(text)).find((entry) => entry.msg === 'admin logged in');
      assert.equal(line?.level, 30);
      assert.equal(line?.email, ADMIN_EMAIL);
      assert.equal(line?.clientIp, '127.0.0.1');
      const all = a.logs.join('\n');
      assert.ok(!all.includes(ADMIN_PASSWORD));
      assert.ok(!all.includes(session.cookie.split('=')[1]!));
      assert.ok(!all.includes(session.csrfToken));
    });

    it('works with the email in another case', async () => {
      await logIn(a.app, ADMIN_EMAIL.toUpperCase());
    });
  });

  describe('the Secure attribute', () => {
    it('is set behind a trusted proxy that says X-Forwarded-Proto: https', async () => {
      a = await startAdminApp({ env: { KEYGATE_TRUSTED_PROXIES: '127.0.0.1' } });
      const res = await request(a.app)
        .post('/admin/api/session')
        .set('X-Forwarded-Proto', 'https')
        .send({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
      assert.match(setCookieOf(res)[0] ?? '', /; Secure$/);
    });

    it('is not set when an untrusted client says X-Forwarded-Proto: https', async () => {
      a = await startAdminApp();
      const res = await request(a.app)
        .post('/admin/api/session')
        .set('X-Forwarded-Proto', 'https')
        .send({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
      assert.doesNotMatch(setCookieOf(res)[0] ?? '', /Secure/);
    });

    it('is always set with KEYGATE_ADMIN_COOKIE_SECURE=true, also on logout', async () => {
      a = await startAdminApp({ env: { KEYGATE_ADMIN_COOKIE_SECURE: 'true' } });
      const session = await logIn(a.app);
      assert.match(session.setCookie, /; Secure$/);
      const out = await send(a.app, 'delete', '/session', session);
      assert.match(setCookieOf(out)[0] ?? '', /; Secure/);
    });
  });

  describe('POST with a wrong password or an unknown email', () => {
    beforeEach(async () => {
      a = await startAdminApp();
    });

    it('responds 401 INVALID_CREDENTIALS with identical bodies, no cookie, and one password check each', async () => {
      const before = a.hasher.verifications;
      const wrong = await request(a.app)
        .post('/admin/api/session')
        .send({ email: ADMIN_EMAIL, password: 'not the password' });
      assert.equal(a.hasher.verifications, before + 1);
      const unknown = await request(a.app)
        .post('/admin/api/session')
        .send({ email: 'nobody@example.com', password: 'not the password' });
      assert.equal(a.hasher.verifications, before + 2);
      for (const res of [wrong, unknown]) {
        assert.equal(res.status, 401);
        assert.equal(res.body.code, 'INVALID_CREDENTIALS');
        assert.equal(res.headers['set-cookie'], undefined);
        assert.equal(res.headers['www-authenticate'], undefined);
      }
      const strip = (body: Record<string, unknown>) => ({ ...body, instance: undefined });
      assert.deepEqual(strip(wrong.body), strip(unknown.body));
    });

    it('logs the failure at warn with email and client IP, never the password', async () => {
      await request(a.app)
        .post('/admin/api/session')
        .send({ email: ADMIN_EMAIL, password: 'hunter2-but-longer' });
      const line = a.logs.map((text) => JSON.parse(text)).find((entry) => entry.msg === 'admin login failed');
      assert.equal(line?.level, 40);
      assert.equal(line?.email, ADMIN_EMAIL);
      assert.equal(line?.clientIp, '127.0.0.1');
      assert.ok(!a.logs.join('\n').includes('hunter2-but-longer'));
    });
  });

  describe('POST with a body that is not {email, password}', () => {
    it('responds 422 VALIDATION_FAILED and checks no password', async () => {
      a = await startAdminApp();
      const before = a.hasher.verifications;
      const res = await request(a.app).post('/admin/api/session').send({ email: ADMIN_EMAIL });
      assert.equal(res.status, 422);
      assert.equal(res.body.code, 'VALIDATION_FAILED');
      assert.deepEqual(
        res.body.errors.map((e: { pointer: string }) => e.pointer),
        ['/password'],
      );
      assert.equal(a.hasher.verifications, before);
    });
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
    const until = async (check: () => boolean) => {
      while (!check()) await new Promise((resolve) => setTimeout(resolve, 2));
    };
    beforeEach(() => {
      answered = 0;
    });

    it('checks no more passwords for one email than failures are allowed, answering the rest 429', async () => {
      const all = Promise.all(
        Array.from({ length: 10 }, (_, i) => attempt(ADMIN_EMAIL, `198.51.100.${i + 1}`)),
      );
      await until(() => answered === 7);
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
      await until(() => answered === 2);
      assert.equal(hasher.waiting, 4);
      hasher.release();
      const results = await all;
      assert.deepEqual(results.map((res) => res.status).sort(), [401, 401, 401, 401, 429, 429]);
      assert.equal(results.find((res) => res.status === 429)?.headers['retry-after'], '1');
    });
  });

  describe('without a session', () => {
    beforeEach(async () => {
      a = await startAdminApp();
    });

    it('answers 401 ADMIN_SESSION_REQUIRED on every admin API route, with no-store', async () => {
      for (const [method, path] of ROUTES) {
        const res = await request(a.app)[method](`/admin/api${path}`);
        assert.equal(res.status, 401, `${method} ${path}`);
        assert.equal(res.body.code, 'ADMIN_SESSION_REQUIRED', `${method} ${path}`);
        assert.equal(res.headers['cache-control'], 'no-store', `${method} ${path}`);
      }
    });

    it('answers 401 with a made-up cookie', async () => {
      const res = await request(a.app)
        .get('/admin/api/keys')
        .set('Cookie', `keygate_admin=${'A'.repeat(43)}`);
      assert.equal(res.status, 401);
    });

    it('answers 401 to a valid auth:rw API key as Bearer, and creates nothing', async () => {
      const { secret } = await a.keyService.createKey(
        { type: 'admin', id: a.adminId },
        { name: 'manager', environment: 'live', scopes: ['auth:rw'] },
        { sourceIp: null },
      );
      for (const [method, path] of ROUTES) {
        const res = await request(a.app)
          [method](`/admin/api${path}`)
          .auth(secret, { type: 'bearer' })
          .send({});
        assert.equal(res.status, 401, `${method} ${path}`);
        assert.equal(res.body.code, 'ADMIN_SESSION_REQUIRED');
      }
      const created = await request(a.app)
        .post('/admin/api/keys')
        .auth(secret, { type: 'bearer' })
        .send({ name: 'x', environment: 'live', scopes: ['auth:rw'] });
      assert.equal(created.status, 401);
      assert.equal((await a.store.listKeys()).length, 1);
    });
  });

  describe('GET and DELETE with a session', () => {
    beforeEach(async () => {
      a = await startAdminApp();
    });

    it('GET answers the session; DELETE logs out, clears the cookie, and the same cookie is refused after', async () => {
      const session = await logIn(a.app);
      const me = await read(a.app, '/session', session);
      assert.equal(me.status, 200);
      assert.equal(me.body.csrfToken, session.csrfToken);
      const out = await send(a.app, 'delete', '/session', session);
      assert.equal(out.status, 204);
      assert.match(
        setCookieOf(out)[0] ?? '',
        /^keygate_admin=; Path=\/admin; HttpOnly; SameSite=Strict; Max-Age=0/,
      );
      assert.equal((await read(a.app, '/session', session)).status, 401);
      assert.equal((await read(a.app, '/keys', session)).status, 401);
      const line = a.logs.map((text) => JSON.parse(text)).find((entry) => entry.msg === 'admin logged out');
      assert.equal(line?.userId, a.adminId);
    });

    it('logout on one instance ends the session on another sharing the store', async () => {
      const other = await startAdminApp({ store: a.store, clock: a.clock });
      try {
        const session = await logIn(a.app);
        assert.equal((await read(other.app, '/keys', session)).status, 200);
        assert.equal((await send(other.app, 'delete', '/session', session)).status, 204);
        assert.equal((await read(a.app, '/keys', session)).status, 401);
      } finally {
        await other.close();
      }
    });

    it('ends after the idle timeout, which every request slides forward', async () => {
      const session = await logIn(a.app);
      a.clock.now += 29 * MINUTE;
      assert.equal((await read(a.app, '/keys', session)).status, 200);
      a.clock.now += 29 * MINUTE;
      const me = await read(a.app, '/session', session);
      assert.equal(me.status, 200);
      assert.equal(me.body.idleExpiresAt, new Date(a.clock.now + 30 * MINUTE).toISOString());
      a.clock.now += 30 * MINUTE;
      assert.equal((await read(a.app, '/session', session)).status, 401);
    });

    it('ends at the absolute timeout however active', async () => {
      const session = await logIn(a.app);
      for (let elapsed = 0; elapsed < 12 * 60 - 20; elapsed += 20) {
        a.clock.now += 20 * MINUTE;
        assert.equal((await read(a.app, '/session', session)).status, 200);
      }
      a.clock.now += 20 * MINUTE;
      assert.equal((await read(a.app, '/session', session)).status, 401);
    });
  });
});
