import assert from 'node:assert/strict';
import { createKeygateClient, parseRateLimit, rateLimitOf, retryAfterMs } from '../src/index.ts';
import { fakeFetch, ok, rateLimited } from './support/fake-fetch.ts';

const NOW = Date.parse('2026-11-21T10:00:00Z');

describe('rate-limit headers', () => {
  it('reads quota, window, remaining calls and reset from the IETF headers', () => {
    const headers = new Headers({
      'RateLimit-Policy': '"per-key";q=100;w=60',
      RateLimit: '"per-key";r=57;t=23',
    });
    assert.deepEqual(parseRateLimit(headers, NOW), {
      policy: 'per-key',
      limit: 100,
      windowSeconds: 60,
      remaining: 57,
      resetSeconds: 23,
      resetsAt: new Date(NOW + 23_000),
      retryAfterSeconds: null,
      observedAt: new Date(NOW),
    });
  });

  it('picks the policy with the fewest calls left when several are announced', () => {
    const headers = new Headers({
      'RateLimit-Policy': '"burst";q=10;w=1, "per-key";q=100;w=60',
      RateLimit: '"per-key";r=57;t=23, "burst";r=2;t=1',
    });
    const state = parseRateLimit(headers, NOW);
    assert.equal(state?.policy, 'burst');
    assert.equal(state?.limit, 10);
    assert.equal(state?.remaining, 2);
  });

  it('keeps the state without a policy header, and ignores unusable RateLimit values', () => {
    assert.equal(parseRateLimit(new Headers({ RateLimit: '"per-key";r=5;t=9' }), NOW)?.limit, null);
    assert.equal(parseRateLimit(new Headers({ RateLimit: '"per-key";r=-1;t=x' }), NOW), undefined);
    assert.equal(parseRateLimit(new Headers(), NOW), undefined);
  });

  it('reads Retry-After as seconds or as an HTTP date, never negative', () => {
    assert.equal(retryAfterMs(new Headers({ 'Retry-After': '17' }), NOW), 17_000);
    assert.equal(retryAfterMs(new Headers({ 'Retry-After': 'Sat, 21 Nov 2026 10:00:30 GMT' }), NOW), 30_000);
    assert.equal(retryAfterMs(new Headers({ 'Retry-After': 'Sat, 21 Nov 2026 09:00:00 GMT' }), NOW), 0);
    assert.equal(retryAfterMs(new Headers({ 'Retry-After': 'soon' }), NOW), undefined);
  });

  it('exposes the latest state on the client and each response its own', async () => {
    const fake = fakeFetch(ok({ data: [] }, 2), ok({ data: [] }, 1), rateLimited(40));
    const client = createKeygateClient({
      baseUrl: 'https://gw.test',
      apiKey: 'kg_live_x',
      fetch: fake.fetch,
      retry: false,
      now: () => NOW,
    });
    // Read through a function: TypeScript would keep `undefined` narrowed after the first assert.
    const latest = () => client.rateLimit;
    assert.equal(latest(), undefined);
    const first = await client.GET('/v2/channels');
    const second = await client.GET('/v2/channels');
    assert.equal(latest()?.remaining, 1);
    const third = await client.GET('/v2/channels');
    assert.equal(rateLimitOf(first.response)?.remaining, 2);
    assert.equal(rateLimitOf(second.response)?.remaining, 1);
    assert.deepEqual([latest()?.remaining, latest()?.retryAfterSeconds, latest()?.limit], [0, 40, 3]);
    assert.equal(rateLimitOf(third.response)?.resetsAt.getTime(), NOW + 40_000);
  });
});
