import assert from 'node:assert/strict';
import { createKeygateClient, type KeygateClientOptions } from '../src/index.ts';
import { createRetryingFetch, DEFAULT_RETRY, sleep } from '../src/retry.ts';
import { fakeFetch, fakeSleep, ok, problemBody, rateLimited } from './support/fake-fetch.ts';

const CHANNELS = { data: [{ code: 'WEB_DE' }] };

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

describe('retrying after 429', () => {
  it('waits Retry-After seconds and retries a GET, which then succeeds', async () => {
    const fake = fakeFetch(rateLimited(3), ok(CHANNELS));
    const { client, delays } = clientWith(fake);
    const { data, error } = await client.GET('/v2/channels');
    assert.equal(error, undefined);
    assert.deepEqual(data, CHANNELS);
    assert.deepEqual(delays, [3000]);
    assert.equal(fake.seen.length, 2);
    assert.equal(fake.seen[1]?.headers.get('authorization'), 'Bearer kg_live_secret');
  });

  it('sends the same body again when it retries a PUT', async () => {
    const fake = fakeFetch(rateLimited(1), ok({ sku: 'A', onHand: 4 }));
    const retrying = createRetryingFetch({
      fetch: fake.fetch,
      retry: DEFAULT_RETRY,
      sleep: fakeSleep().sleep,
      now: Date.now,
    });
    const request = new Request('https://gw.test/v2/stock/A', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ onHand: 4 }),
    });
    const response = await retrying(request);
    assert.equal(response.status, 200);
    assert.deepEqual(
      fake.seen.map((seen) => [seen.method, seen.body]),
      [
        ['PUT', '{"onHand":4}'],
        ['PUT', '{"onHand":4}'],
      ],
    );
  });

  for (const method of ['POST', 'PATCH']) {
    it(`returns the 429 of a ${method} without an Idempotency-Key unchanged`, async () => {
      const fake = fakeFetch(rateLimited(1), ok({}));
      const retrying = createRetryingFetch({
        fetch: fake.fetch,
        retry: { maxRetries: 5, maxWaitSeconds: 600 },
        sleep: fakeSleep().sleep,
        now: Date.now,
      });
      const response = await retrying(new Request('https://gw.test/v2/customers/c1', { method, body: '{}' }));
      assert.equal(response.status, 429);
      assert.equal(fake.seen.length, 1);
    });
  }

  it('returns the 429 at once with retry: false, retryAfter readable on the problem', async () => {
    const fake = fakeFetch(rateLimited(12), ok(CHANNELS));
    const { client, delays } = clientWith(fake, { retry: false });
    const { error, response } = await client.GET('/v2/channels');
    assert.equal(response.status, 429);
    assert.equal(error?.retryAfter, 12);
    assert.equal(fake.seen.length, 1);
    assert.deepEqual(delays, []);
  });

  it('stops after maxRetries and returns the last 429', async () => {
    const fake = fakeFetch(rateLimited(2));
    const { client, delays } = clientWith(fake, { retry: { maxRetries: 3 } });
    const { error } = await client.GET('/v2/channels');
    assert.equal(error?.status, 429);
    assert.equal(fake.seen.length, 4, 'the first attempt and three retries');
    assert.deepEqual(delays, [2000, 2000, 2000]);
  });

  it('does not wait when Retry-After exceeds maxWaitSeconds', async () => {
    const fake = fakeFetch(rateLimited(61), ok(CHANNELS));
    const { client, delays } = clientWith(fake);
    const { error } = await client.GET('/v2/channels');
    assert.equal(error?.retryAfter, 61);
    assert.deepEqual(delays, [], 'the default cap is 60 s of waiting per call');
    assert.equal(fake.seen.length, 1);
  });

  it('caps the total wait of one call across its retries', async () => {
    const fake = fakeFetch(rateLimited(20), rateLimited(20), ok(CHANNELS));
    const { client, delays } = clientWith(fake, { retry: { maxRetries: 5, maxWaitSeconds: 30 } });
    const { error } = await client.GET('/v2/channels');
    assert.equal(error?.status, 429);
    assert.deepEqual(delays, [20_000], 'a second 20 s wait would exceed 30 s');
  });

  it('falls back to the RateLimit reset when Retry-After is missing', async () => {
    const limited = rateLimited(9);
    delete limited.headers?.['retry-after'];
    const fake = fakeFetch(limited, ok(CHANNELS));
    const { client, delays } = clientWith(fake);
    assert.deepEqual((await client.GET('/v2/channels')).data, CHANNELS);
    assert.deepEqual(delays, [9000]);
  });

  it('reads an HTTP-date Retry-After against the injected clock', async () => {
    const now = Date.parse('2026-11-21T10:00:00Z');
    const limited = rateLimited(1);
    limited.headers = { 'retry-after': 'Sat, 21 Nov 2026 10:00:04 GMT' };
    const fake = fakeFetch(limited, ok(CHANNELS));
    const { client, delays } = clientWith(fake, { now: () => now });
    await client.GET('/v2/channels');
    assert.deepEqual(delays, [4000]);
  });

  it('does not retry other errors', async () => {
    const fake = fakeFetch({ status: 500, body: problemBody('INTERNAL', 500) }, ok(CHANNELS));
    const { client } = clientWith(fake);
    const { response } = await client.GET('/v2/channels');
    assert.equal(response.status, 500);
    assert.equal(fake.seen.length, 1);
  });

  it('gives up waiting as soon as the caller aborts, without another request', async () => {
    const fake = fakeFetch(rateLimited(30), ok(CHANNELS));
    const controller = new AbortController();
    const { client } = clientWith(fake, {
      sleep: (ms, signal) => {
        const waiting = sleep(ms, signal);
        controller.abort(new Error('caller gave up'));
        return waiting;
      },
    });
    await assert.rejects(client.GET('/v2/channels', { signal: controller.signal }), /caller gave up/);
    assert.equal(fake.seen.length, 1);
  });

  it('does not start a wait for a signal that is already aborted', async () => {
    await assert.rejects(sleep(60_000, AbortSignal.abort()), { name: 'AbortError' });
  });
});
