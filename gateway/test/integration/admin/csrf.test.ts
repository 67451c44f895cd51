import assert from 'node:assert/strict';
import request from 'supertest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  type AdminApp,
  EVIL_ORIGIN,
  type LoggedIn,
  logIn,
  read,
  send,
  startAdminApp,
} from './admin-app.ts';

const HOST = 'admin.example:8443';

describe('CSRF protection of /admin/api', () => {
  let a: AdminApp;
  let session: LoggedIn;
  let keyId: string;
  let keyBefore: unknown;
  beforeEach(async () => {
    a = await startAdminApp({ env: { KEYGATE_TRUSTED_PROXIES: '127.0.0.1' } });
    session = await logIn(a.app);
    const created = await send(a.app, 'post', '/keys', session).send({
      name: 'target',
      environment: 'live',
      scopes: ['article:r'],
    });
    keyId = created.body.id;
    keyBefore = (await read(a.app, `/keys/${keyId}`, session)).body;
  });
  afterEach(() => a.close());

  /** Every state-changing call an attacker would want, with a valid cookie and CSRF token. */
  const attacks = () => [
    send(a.app, 'post', `/keys/${keyId}/scopes`, session).send({ scopes: ['auth:rw'] }),
    send(a.app, 'post', `/keys/${keyId}/rotate`, session).send({}),
    send(a.app, 'post', `/keys/${keyId}/close-old-secret`, session).send({}),
    send(a.app, 'delete', `/keys/${keyId}`, session),
    send(a.app, 'post', '/keys', session).send({ name: 'evil', environment: 'live', scopes: ['auth:rw'] }),
    send(a.app, 'delete', '/session', session),
  ];

  async function assertNothingChanged(): Promise<void> {
    assert.deepEqual((await read(a.app, `/keys/${keyId}`, session)).body, keyBefore);
    assert.equal((await a.store.listKeys()).length, 1);
    const { items } = await a.store.listActivity({});
    assert.deepEqual(
      items.map((entry) => entry.action),
      ['key.created'],
    );
    assert.equal((await read(a.app, '/session', session)).status, 200, 'the session ended');
  }

  describe('a cross-site POST with a valid session cookie and token', () => {
    it('with Origin: https://evil.example → 403 CSRF_REJECTED and nothing changed', async () => {
      for (const [i, attack] of attacks().entries()) {
        const res = await attack.set('Origin', EVIL_ORIGIN);
        assert.equal(res.status, 403, `attack ${i}`);
        assert.equal(res.body.code, 'CSRF_REJECTED');
      }
      await assertNothingChanged();
    });

    it('with Sec-Fetch-Site: cross-site (or same-site) → 403 and nothing changed', async () => {
      for (const site of ['cross-site', 'same-site', 'none']) {
        for (const [i, attack] of attacks().entries()) {
          const res = await attack.set('Sec-Fetch-Site', site);
          assert.equal(res.status, 403, `${site} attack ${i}`);
          assert.equal(res.body.code, 'CSRF_REJECTED');
        }
      }
      await assertNothingChanged();
    });

    it('with Origin: null (sandboxed frame) → 403', async () => {
      const res = await send(a.app, 'delete', `/keys/${keyId}`, session).set('Origin', 'null');
      assert.equal(res.status, 403);
      await assertNothingChanged();
    });
  });

  describe("a same-origin POST without the session's X-CSRF-Token", () => {
    it('missing or wrong → 403 CSRF_REJECTED and nothing changed', async () => {
      const bare = await request(a.app).delete(`/admin/api/keys/${keyId}`).set('Cookie', session.cookie);
      assert.equal(bare.status, 403);
      assert.equal(bare.body.code, 'CSRF_REJECTED');
      const other = await logIn(a.app);
      for (const token of [other.csrfToken, `${session.csrfToken}x`, '']) {
        const res = await request(a.app)
          .delete(`/admin/api/keys/${keyId}`)
          .set('Cookie', session.cookie)
          .set('X-CSRF-Token', token);
        assert.equal(res.status, 403);
      }
      await assertNothingChanged();
    });
  });

  describe('a same-origin call', () => {
    it("with Origin equal to the request's own origin and Sec-Fetch-Site: same-origin → allowed", async () => {
      const res = await send(a.app, 'post', `/keys/${keyId}/scopes`, session)
        .set('Host', HOST)
        .set('Origin', `http://${HOST}`)
        .set('Sec-Fetch-Site', 'same-origin')
        .send({ scopes: ['article:r', 'order:r'] });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.scopes, ['article:r', 'order:r']);
    });

    it('behind a trusted TLS proxy, with Origin https://<host> → allowed; http://<host> → 403', async () => {
      const call = (origin: string) =>
        send(a.app, 'post', `/keys/${keyId}/scopes`, session)
          .set('Host', 'admin.example')
          .set('X-Forwarded-Proto', 'https')
          .set('Origin', origin)
          .send({ scopes: ['order:r'] });
      assert.equal((await call('http://admin.example')).status, 403);
      assert.equal((await call('https://admin.example')).status, 200);
    });

    it('a GET is never refused for its origin (reads change nothing)', async () => {
      const res = await read(a.app, '/keys', session)
        .set('Origin', EVIL_ORIGIN)
        .set('Sec-Fetch-Site', 'cross-site');
      assert.equal(res.status, 200);
    });
  });

  describe('login from another site', () => {
    it('is refused with 403 before any password check', async () => {
      const before = a.hasher.verifications;
      const res = await request(a.app)
        .post('/admin/api/session')
        .set('Origin', EVIL_ORIGIN)
        .send({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
      assert.equal(res.status, 403);
      assert.equal(res.body.code, 'CSRF_REJECTED');
      assert.equal(res.headers['set-cookie'], undefined);
      assert.equal(a.hasher.verifications, before);
    });
  });
});
