import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { type AdminApp, startAdminApp } from './admin-app.ts';

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

    it('leaves /admin/api to the API: no index.html there', async () => {
      const res = await request(a.app).get('/admin/api/keys/anything');
      assert.equal(res.status, 401);
      assert.match(res.headers['content-type'] ?? '', /^application\/problem\+json/);
    });
  });

  describe('when not built', () => {
    it('answers 503 ADMIN_UI_NOT_BUILT saying to run pnpm build, for pages and assets', async () => {
      rmSync(join(a.dir, 'ui', 'index.html'));
      for (const path of ['/admin', '/admin/keys', '/admin/assets/index-3f2a1b.js']) {
        const res = await request(a.app).get(path);
        assert.equal(res.status, 503, path);
        assert.equal(res.body.code, 'ADMIN_UI_NOT_BUILT');
        assert.match(res.body.detail, /pnpm build/);
      }
    });
  });
});
