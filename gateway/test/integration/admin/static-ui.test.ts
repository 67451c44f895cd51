import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { type AdminApp, startAdminApp, writeUiDir } from './admin-app.ts';

/** The policy the contract (notes/admin-api.md) fixes, word for word. */
const CONTRACT_CSP =
  "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

function assertPageHeaders(res: request.Response): void {
  assert.equal(res.headers['content-security-policy'], CONTRACT_CSP);
  assert.equal(res.headers['x-content-type-options'], 'nosniff');
  assert.equal(res.headers['referrer-policy'], 'no-referrer');
}

describe('the admin interface at /admin', () => {
  let a: AdminApp;
  beforeEach(async () => {
    a = await startAdminApp();
  });
  afterEach(() => a.close());

  describe('when built', () => {
    it('serves index.html at /admin and /admin/ with the CSP, nosniff, no-referrer and no-cache', async () => {
      for (const path of ['/admin', '/admin/']) {
        const res = await request(a.app).get(path);
        assert.equal(res.status, 200, path);
        assert.match(res.headers['content-type'] ?? '', /^text\/html/);
        assert.match(res.text, /keygate admin/);
        assert.equal(res.headers['cache-control'], 'no-cache');
        assertPageHeaders(res);
      }
    });

    it('serves hashed assets cached immutable', async () => {
      const res = await request(a.app).get('/admin/assets/index-3f2a1b.js');
      assert.equal(res.status, 200);
      assert.match(res.headers['content-type'] ?? '', /javascript/);
      assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
      assertPageHeaders(res);
    });

    it('serves other files with no-cache', async () => {
      const res = await request(a.app).get('/admin/favicon.svg');
      assert.equal(res.status, 200);
      assert.equal(res.headers['cache-control'], 'no-cache');
    });

    it('falls back to index.html for client-side routes', async () => {
      const res = await request(a.app).get('/admin/keys/key_123/usage');
      assert.equal(res.status, 200);
      assert.match(res.text, /keygate admin/);
      assert.equal(res.headers['cache-control'], 'no-cache');
      assertPageHeaders(res);
    });

    it('answers 404 for a missing asset instead of index.html', async () => {
      const res = await request(a.app).get('/admin/assets/missing-abc.js');
      assert.equal(res.status, 404);
      assert.match(res.headers['content-type'] ?? '', /^application\/problem\+json/);
    });

    it('never serves files outside the build directory', async () => {
      for (const path of ['/admin/../gateway.db', '/admin/%2e%2e/gateway.db', '/admin/..%2fgateway.db']) {
        const res = await request(a.app).get(path);
        assert.notEqual(res.status, 200, path);
        assert.doesNotMatch(res.text, /SQLite format/, path);
      }
    });

    it('adds Strict-Transport-Security only when the page came over TLS (via a trusted proxy here)', async () => {
      const plain = await request(a.app).get('/admin/');
      assert.equal(plain.headers['strict-transport-security'], undefined, 'never over plain HTTP');
      await a.close();
      a = await startAdminApp({ env: { KEYGATE_TRUSTED_PROXIES: '127.0.0.1' } });
      const tls = await request(a.app).get('/admin/').set('X-Forwarded-Proto', 'https');
      assert.equal(tls.status, 200);
      assert.equal(tls.headers['strict-transport-security'], 'max-age=31536000');
      const spoofed = await request(a.app).get('/admin/').set('X-Forwarded-Proto', 'http');
      assert.equal(spoofed.headers['strict-transport-security'], undefined);
    });

    it('leaves /admin/api to the API: no index.html there', async () => {
      const res = await request(a.app).get('/admin/api/keys/anything');
      assert.equal(res.status, 401);
      assert.match(res.headers['content-type'] ?? '', /^application\/problem\+json/);
    });
  });

  describe('when not built', () => {
    let missing: string;
    beforeEach(async () => {
      await a.close();
      missing = mkdtempSync(join(tmpdir(), 'keygate-no-ui-'));
      a = await startAdminApp({ env: { KEYGATE_ADMIN_UI_DIR: join(missing, 'ui') } });
    });
    afterEach(() => rmSync(missing, { recursive: true, force: true }));

    it('answers 503 ADMIN_UI_NOT_BUILT saying to run pnpm build, without the server path', async () => {
      for (const path of ['/admin', '/admin/keys', '/admin/assets/index-3f2a1b.js']) {
        const res = await request(a.app).get(path);
        assert.equal(res.status, 503, path);
        assert.equal(res.body.code, 'ADMIN_UI_NOT_BUILT');
        assert.match(res.body.detail, /pnpm build/);
        assert.ok(!res.text.includes(missing), `${path}: the answer does not reveal the directory`);
      }
    });

    it('logs the missing build once at warn (with the directory), not as an error per request', async () => {
      for (let i = 0; i < 3; i++) assert.equal((await request(a.app).get('/admin/')).status, 503);
      const lines = a.logs.map((text) => JSON.parse(text) as { level: number; msg: string; uiDir?: string });
      const warned = lines.filter((line) => /admin interface not built/.test(line.msg));
      assert.equal(warned.length, 1);
      assert.equal(warned[0]?.level, 40);
      assert.equal(warned[0]?.uiDir, join(missing, 'ui'));
      assert.deepEqual(
        lines.filter((line) => line.level >= 50),
        [],
      );
    });

    it('serves the build once it is written, without a restart', async () => {
      assert.equal((await request(a.app).get('/admin/')).status, 503);
      writeUiDir(missing);
      const res = await request(a.app).get('/admin/keys');
      assert.equal(res.status, 200);
      assert.match(res.text, /keygate admin/);
    });
  });

  describe('when the build disappears after start', () => {
    it('answers 503 ADMIN_UI_NOT_BUILT for pages', async () => {
      rmSync(join(a.dir, 'ui', 'index.html'));
      for (const path of ['/admin', '/admin/keys']) {
        const res = await request(a.app).get(path);
        assert.equal(res.status, 503, path);
        assert.equal(res.body.code, 'ADMIN_UI_NOT_BUILT');
      }
    });
  });
});
