import assert from 'node:assert/strict';
import request from 'supertest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, type AdminApp, logIn, read, send, startAdminApp } from './admin-app.ts';

const setCookieOf = (res: request.Response): string[] =>
  ([] as string[]).concat(res.headers['set-cookie'] ?? []);

describe('the admin session cookie', () => {
  let a: AdminApp;
  afterEach(async () => {
    await a?.close();
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

  describe('sent more than once', () => {
    beforeEach(async () => {
      a = await startAdminApp();
    });

    it('answers 401 when the session cookie comes twice, even if one of them is valid', async () => {
      const session = await logIn(a.app);
      const planted = `keygate_admin=${'B'.repeat(43)}`;
      for (const cookie of [`${planted}; ${session.cookie}`, `${session.cookie}; ${planted}`]) {
        const res = await request(a.app).get('/admin/api/keys').set('Cookie', cookie);
        assert.equal(res.status, 401, cookie);
        assert.equal(res.body.code, 'ADMIN_SESSION_REQUIRED');
      }
      assert.equal((await read(a.app, '/keys', session)).status, 200, 'the one cookie alone still works');
    });
  });
});
