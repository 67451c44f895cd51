import assert from 'node:assert/strict';
import request from 'supertest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, type AdminApp, logIn, read, send, startAdminApp } from './admin-app.ts';

const MINUTE = 60_000;
const logLines = (a: AdminApp) => a.logs.map((text) => JSON.parse(text) as Record<string, unknown>);

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

    it('logs only a short digest of an unknown email (it may be a password typed in the wrong field)', async () => {
      const typo = 'Tr0ub4dor&3-in-the-email-field';
      await request(a.app).post('/admin/api/session').send({ email: typo, password: 'whatever it is' });
      const line = logLines(a).find((entry) => entry.msg === 'admin login failed');
      assert.equal(line?.reason, 'unknown_email');
      assert.equal(line?.email, undefined);
      assert.match(String(line?.emailSha256), /^[0-9a-f]{12}$/);
      assert.ok(!a.logs.join('\n').includes(typo), 'the typed value is not in the logs');
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

  describe('with a session', () => {
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

    it('a new login replaces the session the browser sent (no session fixation)', async () => {
      const first = await logIn(a.app);
      const res = await request(a.app)
        .post('/admin/api/session')
        .set('Cookie', first.cookie)
        .send({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
      assert.equal(res.status, 201);
      const second = setCookieOf(res)[0]?.split(';')[0] ?? '';
      assert.match(second, /^keygate_admin=[A-Za-z0-9_-]{43}$/);
      assert.notEqual(second, first.cookie, 'a fresh token, not the one the browser brought');
      assert.equal((await read(a.app, '/session', first)).status, 401, 'the first cookie is dead');
      const me = await read(a.app, '/session', { ...first, cookie: second });
      assert.equal(me.status, 200);
      assert.notEqual(me.body.csrfToken, first.csrfToken);
    });

    it('answers with nosniff and no-store, errors included', async () => {
      const session = await logIn(a.app);
      for (const res of [
        await read(a.app, '/keys', session),
        await read(a.app, '/keys/key_missing', session),
        await request(a.app).get('/admin/api/keys'),
      ]) {
        assert.equal(res.headers['x-content-type-options'], 'nosniff', `${res.status}`);
        assert.equal(res.headers['cache-control'], 'no-store', `${res.status}`);
      }
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
