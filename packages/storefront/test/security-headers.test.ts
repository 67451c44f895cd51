import assert from 'node:assert/strict';
import { contentSecurityPolicy, createNonce, isHttpsRequest } from '../src/lib/security-headers.ts';
import { imageOriginsOf, siteOrigin } from '../src/lib/site.ts';

const directives = (csp: string) =>
  new Map(csp.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));

describe('contentSecurityPolicy()', () => {
  const base = { nonce: 'abc123==', imageOrigins: [], isHttps: false, isDev: false };

  it('lets scripts run only with the nonce, never inline, and forbids framing', () => {
    const csp = directives(contentSecurityPolicy(base));
    assert.deepEqual(csp.get('script-src'), ["'self'", "'nonce-abc123=='", "'strict-dynamic'"]);
    assert.deepEqual(csp.get('style-src'), ["'self'", "'nonce-abc123=='"]);
    assert.deepEqual(csp.get('frame-ancestors'), ["'none'"]);
    assert.deepEqual(csp.get('object-src'), ["'none'"]);
    assert.deepEqual(csp.get('form-action'), ["'self'"]);
    assert.equal(csp.has('upgrade-insecure-requests'), false);
  });
  it('allows the configured image origins, and upgrades requests over https', () => {
    const csp = directives(
      contentSecurityPolicy({ ...base, imageOrigins: ['https://cdn.example.com'], isHttps: true }),
    );
    assert.deepEqual(csp.get('img-src'), ["'self'", 'data:', 'https://cdn.example.com']);
    assert.equal(csp.has('upgrade-insecure-requests'), true);
  });
  it("adds 'unsafe-eval' under next dev only", () => {
    assert.match(contentSecurityPolicy({ ...base, isDev: true }), /'unsafe-eval'/);
    assert.doesNotMatch(contentSecurityPolicy(base), /unsafe/);
  });
});

describe('createNonce()', () => {
  it('makes a different base64 value of 128 bits each time', () => {
    const [a, b] = [createNonce(), createNonce()];
    assert.notEqual(a, b);
    assert.equal(Buffer.from(a, 'base64').length, 16);
    assert.match(a, /^[A-Za-z0-9+/]+=*$/);
  });
});

describe('isHttpsRequest()', () => {
  it('trusts the first X-Forwarded-Proto value, or an https STOREFRONT_PUBLIC_URL', () => {
    assert.equal(isHttpsRequest('https', undefined), true);
    assert.equal(isHttpsRequest('https, http', undefined), true);
    assert.equal(isHttpsRequest('http', undefined), false);
    assert.equal(isHttpsRequest(null, undefined), false);
    assert.equal(isHttpsRequest(null, 'https://shop.example.com'), true);
    assert.equal(isHttpsRequest('https', 'http://127.0.0.1:3000'), true);
  });
});

describe('siteOrigin()', () => {
  const bag = (entries: Record<string, string>) => new Headers(entries);
  it('prefers STOREFRONT_PUBLIC_URL over anything the request says', () => {
    const headers = bag({ host: 'evil.example', 'x-forwarded-host': 'evil.example' });
    assert.equal(siteOrigin('https://shop.example.com/', headers), 'https://shop.example.com');
  });
  it("takes the proxy's forwarded host and protocol, else Host over http", () => {
    const proxied = bag({
      host: '10.0.0.5:3000',
      'x-forwarded-host': 'shop.example.com',
      'x-forwarded-proto': 'https',
    });
    assert.equal(siteOrigin(undefined, proxied), 'https://shop.example.com');
    assert.equal(siteOrigin(undefined, bag({ host: '127.0.0.1:3000' })), 'http://127.0.0.1:3000');
  });
});

describe('imageOriginsOf()', () => {
  it('splits STOREFRONT_IMAGE_ORIGINS, empty when unset', () => {
    assert.deepEqual(imageOriginsOf('https://a.example https://b.example'), [
      'https://a.example',
      'https://b.example',
    ]);
    assert.deepEqual(imageOriginsOf(undefined), []);
  });
});
