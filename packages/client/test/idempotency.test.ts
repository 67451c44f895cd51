import assert from 'node:assert/strict';
import { createKeygateClient, type KeygateClientOptions } from '../src/index.ts';
import {
  connectionReset,
  type FakeAnswer,
  fakeFetch,
  fakeSleep,
  ok,
  problemBody,
  rateLimited,
} from './support/fake-fetch.ts';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const CART = { id: 'cart_1', lines: [], totals: { gross: 0 } };
const CHANNELS = { data: [{ code: 'WEB_DE' }] };
const unavailable = (retryAfter?: number): FakeAnswer => ({
  status: 503,
  headers: retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) },
  body: problemBody('UPSTREAM_UNAVAILABLE', 503),
});

function clientWith(fake: ReturnType<typeof fakeFetch>, options: Partial<KeygateClientOptions> = {}) {
  const timer = fakeSleep();
  const client = createKeygateClient({
    baseUrl: 'https://gw.test',
    apiKey: 'kg_live_secret',
    fetch: fake.fetch,
    sleep: timer.sleep,
    ...options,
  });
  return { client, delays: timer.delays };
}

const keysSent = (fake: ReturnType<typeof fakeFetch>) =>
  fake.seen.map((seen) => seen.headers.get('idempotency-key'));

describe('Idempotency-Key on POST and PATCH', () => {
  it('sends a fresh UUIDv4 with every POST and PATCH, and none with a GET', async () => {
    const fake = fakeFetch(ok(CART));
    const { client } = clientWith(fake);
    await client.POST('/v2/carts', { body: { channel: 'WEB_DE' } });
    await client.POST('/v2/carts', { body: { channel: 'WEB_DE' } });
    await client.PATCH('/v2/customers/{id}', { params: { path: { id: 'cus_1' } }, body: { name: 'Ada' } });
    await client.GET('/v2/channels');
    const [first, second, patch, get] = keysSent(fake);
    for (const key of [first, second, patch]) assert.match(key ?? '', UUID_V4);
    assert.equal(new Set([first, second, patch]).size, 3, 'one key per call');
    assert.equal(get, null);
  });

  it("keeps the caller's own key, given as the documented header parameter or a header", async () => {
    const fake = fakeFetch(ok(CART));
    const { client } = clientWith(fake);
    await client.POST('/v2/carts/{id}:checkout', {
      params: { path: { id: 'cart_1' }, header: { 'Idempotency-Key': 'order-4711' } },
    });
    await client.POST('/v2/carts', {
      body: { channel: 'WEB_DE' },
      headers: { 'Idempotency-Key': 'order-4712' },
    });
    assert.deepEqual(keysSent(fake), ['order-4711', 'order-4712']);
  });

  it('retries a POST after a 429 with the same key and body, and returns its answer', async () => {
    const fake = fakeFetch(rateLimited(7), { status: 201, body: CART });
    const { client, delays } = clientWith(fake);
    const { data, error } = await client.POST('/v2/carts', { body: { channel: 'WEB_DE' } });
    assert.equal(error, undefined);
    assert.deepEqual(data, CART);
    assert.deepEqual(delays, [7000]);
    const [first, again] = keysSent(fake);
    assert.match(first ?? '', UUID_V4);
    assert.equal(again, first);
    assert.deepEqual(
      fake.seen.map((seen) => seen.body),
      ['{"channel":"WEB_DE"}', '{"channel":"WEB_DE"}'],
    );
  });

  it('retries a checkout after a connection error, with a doubling backoff, under the same key', async () => {
    const fake = fakeFetch(connectionReset(), connectionReset(), { status: 201, body: { id: 'ord_1' } });
    const { client, delays } = clientWith(fake);
    const { data } = await client.POST('/v2/carts/{id}:checkout', { params: { path: { id: 'cart_1' } } });
    assert.deepEqual(data, { id: 'ord_1' });
    assert.deepEqual(delays, [1000, 2000]);
    assert.equal(new Set(keysSent(fake)).size, 1);
  });

  it('retries a PATCH after a 503, waiting its Retry-After', async () => {
    const fake = fakeFetch(unavailable(3), ok({ id: 'cus_1', name: 'Ada' }));
    const { client, delays } = clientWith(fake);
    const { data } = await client.PATCH('/v2/customers/{id}', {
      params: { path: { id: 'cus_1' } },
      body: { name: 'Ada' },
    });
    assert.equal(data?.name, 'Ada');
    assert.deepEqual(delays, [3000]);
    assert.equal(new Set(keysSent(fake)).size, 1);
  });

  for (const status of [500, 502, 504]) {
    it(`does not retry a POST after a ${status}: the first may still act`, async () => {
      const fake = fakeFetch({ status, body: problemBody('UPSTREAM', status) }, { status: 201, body: CART });
      const { client } = clientWith(fake);
      const { response } = await client.POST('/v2/carts', { body: { channel: 'WEB_DE' } });
      assert.equal(response.status, status);
      assert.equal(fake.seen.length, 1);
    });
  }

  it('throws the connection error once the retries are spent', async () => {
    const fake = fakeFetch(connectionReset());
    const { client, delays } = clientWith(fake, { retry: { maxRetries: 1 } });
    await assert.rejects(client.POST('/v2/carts', { body: { channel: 'WEB_DE' } }), /fetch failed/);
    assert.equal(fake.seen.length, 2);
    assert.deepEqual(delays, [1000]);
  });

  it('sends a POST once with retry: false, still with a key', async () => {
    const fake = fakeFetch(connectionReset(), ok(CART));
    const { client } = clientWith(fake, { retry: false });
    await assert.rejects(client.POST('/v2/carts', { body: { channel: 'WEB_DE' } }), /fetch failed/);
    assert.equal(fake.seen.length, 1);
    assert.match(keysSent(fake)[0] ?? '', UUID_V4);
  });
});

describe('retrying GET, HEAD, OPTIONS, PUT and DELETE', () => {
  it('retries after a 502/503/504 (Retry-After, else 1 s doubled) and a connection error', async () => {
    const fake = fakeFetch(
      unavailable(),
      { status: 504, body: problemBody('UPSTREAM_TIMEOUT', 504) },
      ok(CHANNELS),
    );
    const { client, delays } = clientWith(fake);
    assert.deepEqual((await client.GET('/v2/channels')).data, CHANNELS);
    assert.deepEqual(delays, [1000, 2000]);

    const dropped = fakeFetch(connectionReset(), ok(CHANNELS));
    const again = clientWith(dropped);
    assert.deepEqual((await again.client.GET('/v2/channels')).data, CHANNELS);
    assert.deepEqual(again.delays, [1000]);
  });

  it('does not retry a connection error when the caller aborted', async () => {
    const controller = new AbortController();
    let sent = 0;
    const { client, delays } = clientWith(fakeFetch(ok(CHANNELS)), {
      fetch: async () => {
        sent++;
        controller.abort(new Error('caller gave up'));
        throw new DOMException('aborted', 'AbortError');
      },
    });
    await assert.rejects(client.GET('/v2/channels', { signal: controller.signal }), { name: 'AbortError' });
    assert.equal(sent, 1);
    assert.deepEqual(delays, []);
  });
});
