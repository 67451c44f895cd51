import assert from 'node:assert/strict';
import { compileRoutes, hasOnlyPathCharacters, isSafePath } from '../../../src/routes/route-matcher.ts';
import { type RouteTable, RouteTableSchema } from '../../../src/routes/route-table.ts';

const table: RouteTable = RouteTableSchema.parse({
  upstreams: {
    commerce: { audience: 'commerce', live: 'http://live:1', test: 'http://test:2' },
    search: { audience: 'search', live: 'http://search-live:3', test: 'http://search-test:4' },
  },
  defaultUpstream: 'commerce',
  routes: [
    { method: 'GET', path: '/v2/carts/{id}', scope: 'order:r' },
    { method: 'POST', path: '/v2/carts/{id}:checkout', scope: 'order:rw' },
    { method: 'GET', path: '/v2/search', scope: 'article:r', upstream: 'search' },
  ],
});

describe('compileRoutes', () => {
  const routes = compileRoutes(table);

  it('matches a placeholder segment and returns scope, audience and both URLs', () => {
    assert.deepEqual(routes.match('GET', '/v2/carts/crt_1'), {
      kind: 'proxy',
      rule: 'GET /v2/carts/{id}',
      scope: 'order:r',
      upstream: 'commerce',
      audience: 'commerce',
      urls: { live: 'http://live:1', test: 'http://test:2' },
      cost: 1,
    });
  });

  it('treats a literal ":" after a placeholder as part of the pattern', () => {
    assert.equal(routes.match('POST', '/v2/carts/crt_1:checkout')?.scope, 'order:rw');
    assert.equal(routes.match('GET', '/v2/carts/crt_1:checkout'), null, '{id} does not swallow ":"');
    assert.equal(routes.match('POST', '/v2/carts/crt_1'), null);
  });

  it('never lets a placeholder span segments', () => {
    assert.equal(routes.match('GET', '/v2/carts/a/b'), null);
    assert.equal(routes.match('GET', '/v2/carts/'), null);
  });

  it('routes to a named upstream', () => {
    const match = routes.match('GET', '/v2/search');
    assert.equal(match?.kind === 'proxy' && match.audience, 'search');
  });

  it('lets HEAD follow GET rules', () => {
    assert.equal(routes.match('HEAD', '/v2/search')?.scope, 'article:r');
  });

  it('classifies /v2/auth/keys and below as management needing auth:rw', () => {
    for (const path of ['/v2/auth/keys', '/v2/auth/keys/key_1', '/v2/auth/keys/key_1:rotate']) {
      assert.deepEqual(routes.match('POST', path), {
        kind: 'management',
        rule: 'management',
        scope: 'auth:rw',
      });
    }
    assert.equal(routes.match('GET', '/v2/auth/keysx'), null);
  });

  it('classifies the alert routes as management needing auth:rw, and nothing merely starting like them', () => {
    for (const path of [
      '/v2/auth/alert-endpoints',
      '/v2/auth/alert-endpoints/aep_1',
      '/v2/auth/alert-endpoints/aep_1:rotate-secret',
      '/v2/auth/alert-endpoints/aep_1/deliveries',
      '/v2/auth/alert-deliveries/msg_1:resend',
      '/v2/auth/alert-events:stream',
    ]) {
      assert.equal(routes.match('POST', path)?.kind, 'management', path);
    }
    assert.equal(routes.match('GET', '/v2/auth/alert-endpointsx'), null);
    assert.equal(routes.match('GET', '/v2/auth/alert'), null);
  });

  it('refuses a route table claiming an alert management path', () => {
    const claimed = RouteTableSchema.safeParse({
      upstreams: { commerce: { audience: 'commerce', live: 'http://live:1' } },
      defaultUpstream: 'commerce',
      routes: [{ method: 'GET', path: '/v2/auth/alert-endpoints/{id}', scope: 'article:r' }],
    });
    assert.equal(claimed.success, false);
  });

  it('leaves out the environment an upstream has no URL for', () => {
    const partial = compileRoutes(
      RouteTableSchema.parse({
        upstreams: { reports: { audience: 'reports', test: 'http://reports-test:5' } },
        defaultUpstream: 'reports',
        routes: [{ method: 'GET', path: '/v2/reports', scope: 'article:r' }],
      }),
    );
    const match = partial.match('GET', '/v2/reports');
    assert.deepEqual(match?.kind === 'proxy' && match.urls, { test: 'http://reports-test:5' });
    assert.deepEqual(partial.upstreamTargets, [{ label: 'reports/test', url: 'http://reports-test:5' }]);
  });

  it('lists every upstream target once per environment', () => {
    assert.deepEqual(
      routes.upstreamTargets.map((target) => target.label),
      ['commerce/live', 'commerce/test', 'search/live', 'search/test'],
    );
  });
});

describe('isSafePath', () => {
  it('accepts ordinary paths, including encoded characters other than separators', () => {
    for (const path of ['/v2/carts/crt_1', '/v2/catalog/products/a%20b', '/v2/carts/1:checkout', '/v2/x/']) {
      assert.equal(isSafePath(path), true, path);
    }
  });

  it('refuses dot segments, encoded separators, backslashes and empty segments', () => {
    for (const path of [
      '/v2/../v3',
      '/v2/./carts',
      '/v2/%2e%2E/carts',
      '/v2/.%2e/carts',
      '/v2/a%2Fb',
      '/v2/a%5cb',
      '/v2/a\\b',
      '/v2//carts',
      '/v2/a%00',
      'v2/carts',
    ]) {
      assert.equal(isSafePath(path), false, path);
    }
  });
});

describe('hasOnlyPathCharacters', () => {
  it('accepts RFC 3986 pchar, `/` and escapes', () => {
    for (const path of ['/v2/carts/crt_1', "/v2/a-._~!$&'()*+,;=:@/b%20c", '/']) {
      assert.equal(hasOnlyPathCharacters(path), true, path);
    }
  });

  it('refuses `#` and every other character a path may not hold unescaped', () => {
    for (const path of [
      '/v2/customers/c1#/pricing',
      '/v2/a b',
      '/v2/a"b',
      '/v2/{x}',
      '/v2/a|b',
      '/v2/a[0]',
      '/v2/é',
      '/v2/a^b',
      '/v2/a`b',
      '/v2/a<b>',
      '/v2/a\\b',
      '/v2/a\u0000',
    ]) {
      assert.equal(hasOnlyPathCharacters(path), false, path);
    }
  });
});
