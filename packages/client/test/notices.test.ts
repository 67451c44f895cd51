import assert from 'node:assert/strict';
import { createKeygateClient, deprecationOf, type KeygateNotice, keyExpiryOf } from '../src/index.ts';
import { fakeFetch } from './support/fake-fetch.ts';

const DEPRECATED = {
  status: 200,
  headers: {
    deprecation: '@1767225600',
    sunset: 'Thu, 01 Jul 2027 00:00:00 GMT',
    link: '<https://keygate.dev/docs>; rel="help", <https://keygate.dev/deprecation-policy>; rel="deprecation"',
  },
  body: { data: [] },
};

describe('deprecation and key-expiry notices', () => {
  it('reads Deprecation, Sunset and the policy link of a response', () => {
    const response = new Response(null, { headers: DEPRECATED.headers });
    assert.deepEqual(deprecationOf(response, 'GET /v2/channels'), {
      kind: 'deprecation',
      operation: 'GET /v2/channels',
      deprecatedAt: new Date(1767225600 * 1000),
      sunsetAt: new Date('2027-07-01T00:00:00Z'),
      link: 'https://keygate.dev/deprecation-policy',
    });
    assert.equal(deprecationOf(new Response(null), 'GET /v2/channels'), undefined);
  });

  it('reads the key-expiry notice header', () => {
    const response = new Response(null, { headers: { 'Keygate-Key-Expires': '2026-11-25; days-left=5' } });
    assert.deepEqual(keyExpiryOf(response), { kind: 'key-expiry', expiresOn: '2026-11-25', daysLeft: 5 });
    assert.equal(keyExpiryOf(new Response(null, { headers: { 'Keygate-Key-Expires': 'soon' } })), undefined);
  });

  it('tells onNotice once per deprecated operation and once per expiry notice', async () => {
    const notices: KeygateNotice[] = [];
    const expiring = {
      ...DEPRECATED,
      headers: { ...DEPRECATED.headers, 'keygate-key-expires': '2026-11-25; days-left=5' },
    };
    const fake = fakeFetch(expiring, expiring, DEPRECATED);
    const client = createKeygateClient({
      baseUrl: 'https://gw.test',
      apiKey: 'kg_live_x',
      fetch: fake.fetch,
      onNotice: (notice) => notices.push(notice),
    });
    await client.GET('/v2/channels');
    await client.GET('/v2/channels');
    await client.GET('/v2/stock/{sku}', { params: { path: { sku: 'A' } } });
    assert.deepEqual(
      notices.map((notice) => (notice.kind === 'deprecation' ? notice.operation : notice.expiresOn)),
      ['GET /v2/channels', '2026-11-25', 'GET /v2/stock/{sku}'],
    );
  });
});
