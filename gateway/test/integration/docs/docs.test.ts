import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import request from 'supertest';
import { DEFAULT_OPENAPI_FILE, loadConfig } from '../../../src/config.ts';
import { createDocsRouter } from '../../../src/docs/docs-router.ts';
import type { RouteTable } from '../../../src/routes/route-table.ts';
import { startTestGateway, type TestGateway } from '../../support/gateway.ts';

type Operation = { operationId: string; deprecated?: boolean };
type Document = { paths: Record<string, Record<string, Operation>>; webhooks?: Record<string, unknown> };

const routeTable = loadConfig({ KEYGATE_DATA_DIR: '/tmp/keygate-test-unused' }).routes;

/** An app serving only the docs router for `file`. */
function docsApp(file: string, table: RouteTable = routeTable) {
  const app = express();
  app.use(createDocsRouter({ openapiFile: file, routeTable: table }));
  return app;
}

function withTempFile(content: string, use: (file: string) => void | Promise<void>) {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-openapi-'));
  const file = join(dir, 'openapi.json');
  writeFileSync(file, content);
  return Promise.resolve(use(file)).finally(() => rmSync(dir, { recursive: true, force: true }));
}

describe('public API documentation', () => {
  describe('through the gateway app, without an API key', () => {
    let gw: TestGateway;
    before(async () => {
      gw = await startTestGateway();
    });
    after(() => gw.stop());

    it('serves /v2/openapi.json byte for byte as the file, cacheable, to any origin', async () => {
      const res = await request(gw.app).get('/v2/openapi.json').buffer(true);
      assert.equal(res.status, 200);
      assert.match(res.headers['content-type'] ?? '', /^application\/json/);
      assert.equal(res.text, readFileSync(DEFAULT_OPENAPI_FILE, 'utf8'));
      assert.equal(res.headers['access-control-allow-origin'], '*');
      assert.match(res.headers.etag ?? '', /^"[\w-]+"$/);
      const again = await request(gw.app)
        .get('/v2/openapi.json')
        .set('If-None-Match', res.headers.etag ?? '');
      assert.equal(again.status, 304);
      assert.equal(again.text, '');
    });

    it('answers If-None-Match: * and a weak copy of the ETag with 304', async () => {
      for (const path of ['/v2/openapi.json', '/docs']) {
        const first = await request(gw.app).get(path);
        for (const held of ['*', `W/${first.headers.etag}`, `"other", ${first.headers.etag}`]) {
          const again = await request(gw.app).get(path).set('If-None-Match', held);
          assert.equal(again.status, 304, `${path} ${held}`);
        }
        assert.equal((await request(gw.app).get(path).set('If-None-Match', '"other"')).status, 200);
      }
    });

    it('redirects /docs/ to /docs instead of asking for an API key', async () => {
      const res = await request(gw.app).get('/docs/');
      assert.equal(res.status, 301);
      assert.equal(res.headers.location, '/docs');
      assert.equal(res.headers['www-authenticate'], undefined);
    });

    it('serves /docs as self-contained HTML naming every operation, path and webhook', async () => {
      const res = await request(gw.app).get('/docs');
      assert.equal(res.status, 200);
      assert.match(res.headers['content-type'] ?? '', /^text\/html/);
      const document = JSON.parse(readFileSync(DEFAULT_OPENAPI_FILE, 'utf8')) as Document;
      for (const [path, item] of Object.entries(document.paths)) {
        assert.ok(res.text.includes(path), path);
        for (const operation of Object.values(item)) assert.ok(res.text.includes(operation.operationId));
      }
      for (const event of Object.keys(document.webhooks ?? {})) assert.ok(res.text.includes(event), event);
      assert.ok(res.text.includes('RateLimit-Policy') && res.text.includes('Retry-After'));
      assert.ok(res.text.includes('https://keygate.dev/problems/insufficient-scope'));
    });

    it('loads nothing from the network and allows only its own inline stylesheet', async () => {
      const res = await request(gw.app).get('/docs');
      assert.doesNotMatch(res.text, /\b(?:src|href|action|srcset)\s*=\s*["']?\s*(?:https?:)?\/\//i);
      assert.doesNotMatch(res.text, /<script|<link|<img|<iframe|@import|url\(/i);
      const csp = res.headers['content-security-policy'] ?? '';
      assert.match(csp, /default-src 'none'/);
      const styles = [...res.text.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((match) => match[1] ?? '');
      assert.equal(styles.length, 1);
      const hash = createHash('sha256')
        .update(styles[0] ?? '')
        .digest('base64');
      assert.ok(csp.includes(`style-src 'sha256-${hash}'`), csp);
    });
  });

  describe('with another document (a team fronting its own service)', () => {
    const own = {
      openapi: '3.1.0',
      info: { title: 'Acme <Orders>', version: '7' },
      paths: {
        '/v2/carts': {
          post: {
            operationId: 'makeThing',
            summary: 'Make <b>it</b>',
            description: '<script>x()</script>',
            responses: {},
          },
        },
      },
    };

    it('renders whatever the file holds, escaping its text', async () => {
      await withTempFile(JSON.stringify(own), async (file) => {
        const res = await request(docsApp(file)).get('/docs');
        assert.equal(res.status, 200);
        assert.ok(res.text.includes('Acme &lt;Orders&gt;'));
        assert.ok(res.text.includes('makeThing'));
        assert.ok(res.text.includes('&lt;script&gt;x()&lt;/script&gt;'));
        assert.doesNotMatch(res.text, /<script|<b>it/);
      });
    });

    it('marks the operations of deprecated routes, leaving the others', async () => {
      const deprecation = {
        at: '2026-01-01T00:00:00Z',
        sunset: '2027-01-01T00:00:00Z',
        link: 'https://x.test/p',
      };
      const routes = routeTable.routes.map((route) =>
        route.method === 'POST' && route.path === '/v2/carts' ? { ...route, deprecation } : route,
      );
      const table = { ...routeTable, routes } as RouteTable;
      const res = await request(docsApp(DEFAULT_OPENAPI_FILE, table)).get('/v2/openapi.json');
      const document = res.body as Document;
      assert.equal(document.paths['/v2/carts']?.post?.deprecated, true);
      assert.equal(document.paths['/v2/carts/{id}']?.get?.deprecated, undefined);
      const page = await request(docsApp(DEFAULT_OPENAPI_FILE, table)).get('/docs');
      assert.equal((page.text.match(/class="deprecated"/g) ?? []).length, 1);
    });
  });

  describe('a missing or unusable file', () => {
    const cases: Array<[string, string | null, RegExp]> = [
      ['missing', null, /cannot read the OpenAPI document \(ENOENT\)/],
      ['not JSON', '{"openapi": ', /not valid JSON/],
      ['not OpenAPI', '{"swagger": "2.0"}', /not an OpenAPI 3\.x document/],
      [
        'without paths',
        '{"openapi": "3.1.0", "info": {"title": "x"}}',
        /needs info\.title and paths or webhooks/,
      ],
    ];
    for (const [name, content, reason] of cases) {
      it(`refuses to start with one line naming KEYGATE_OPENAPI_FILE (${name})`, async () => {
        const check = (file: string) =>
          assert.throws(
            () => createDocsRouter({ openapiFile: file, routeTable }),
            (error: Error) =>
              error.message.startsWith(`KEYGATE_OPENAPI_FILE=${file}: `) &&
              reason.test(error.message) &&
              !error.message.includes('\n'),
          );
        if (content === null) check(join(tmpdir(), 'keygate-no-such-dir', 'openapi.json'));
        else await withTempFile(content, check);
      });
    }
  });
});
