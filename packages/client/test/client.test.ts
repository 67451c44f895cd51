import assert from 'node:assert/strict';
import { createKeygateClient } from '../src/index.ts';
import { fakeFetch } from './support/fake-fetch.ts';

describe('createKeygateClient', () => {
  it('sends the bearer key, the channel header and the query to the documented path', async () => {
    const fake = fakeFetch({ status: 200, body: { channel: 'WEB_DE', data: [] } });
    const client = createKeygateClient({
      baseUrl: 'https://gw.test/',
      apiKey: 'kg_live_abc',
      fetch: fake.fetch,
    });
    await client.GET('/v2/catalog/products', {
      params: { header: { 'X-Channel': 'WEB_DE' }, query: { customer: 'CUST-1', limit: 5 } },
    });
    const [seen] = fake.seen;
    assert.equal(seen?.url, 'https://gw.test/v2/catalog/products?customer=CUST-1&limit=5');
    assert.equal(seen?.headers.get('authorization'), 'Bearer kg_live_abc');
    assert.equal(seen?.headers.get('x-channel'), 'WEB_DE');
  });

  it('fills colon actions after a path parameter and sends the JSON body', async () => {
    const fake = fakeFetch({ status: 200, body: {} });
    const client = createKeygateClient({
      baseUrl: 'https://gw.test',
      apiKey: 'kg_live_abc',
      fetch: fake.fetch,
    });
    await client.POST('/v2/auth/keys/{id}:rotate', {
      params: { path: { id: 'key 1' } },
      body: { overlapDays: 2 },
    });
    assert.equal(fake.seen[0]?.url, 'https://gw.test/v2/auth/keys/key%201:rotate');
    assert.equal(fake.seen[0]?.body, '{"overlapDays":2}');
    assert.equal(fake.seen[0]?.headers.get('content-type'), 'application/json');
  });

  it('lets a request leave out members the document gives a default (overlapDays)', async () => {
    const fake = fakeFetch({ status: 200, body: {} });
    const client = createKeygateClient({
      baseUrl: 'https://gw.test',
      apiKey: 'kg_live_abc',
      fetch: fake.fetch,
    });
    await client.POST('/v2/auth/keys/{id}:rotate', { params: { path: { id: 'key_1' } }, body: {} });
    assert.equal(fake.seen[0]?.body, '{}');
  });

  it('reads a key function before every call, so a deployed new secret is used at once', async () => {
    const fake = fakeFetch({ status: 200, body: { data: [] } });
    let secret = 'kg_live_old';
    const client = createKeygateClient({
      baseUrl: 'https://gw.test',
      apiKey: async () => secret,
      fetch: fake.fetch,
    });
    await client.GET('/v2/channels');
    secret = 'kg_live_new';
    await client.GET('/v2/channels');
    assert.deepEqual(
      fake.seen.map((seen) => seen.headers.get('authorization')),
      ['Bearer kg_live_old', 'Bearer kg_live_new'],
    );
  });

  it('refuses to start without a base URL or a key, and to call with an empty key', async () => {
    assert.throws(() => createKeygateClient({ baseUrl: '', apiKey: 'k' }), /baseUrl is required/);
    assert.throws(
      () => createKeygateClient({ baseUrl: 'https://gw.test', apiKey: '' }),
      /apiKey is required/,
    );
    const fake = fakeFetch({ status: 200, body: {} });
    const client = createKeygateClient({ baseUrl: 'https://gw.test', apiKey: () => '', fetch: fake.fetch });
    await assert.rejects(client.GET('/v2/channels'), /apiKey is empty/);
    assert.equal(fake.seen.length, 0);
  });
});
