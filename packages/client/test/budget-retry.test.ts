import assert from 'node:assert/strict';
import {
  BUDGET_RETRY_AFTER_LIMIT_SECONDS,
  createKeygateClient,
  KeygateProblemError,
  KeygateRateLimitError,
  ProblemCode,
  unwrap,
} from '../src/index.ts';
import { type FakeAnswer, fakeFetch, fakeSleep, ok, problemBody } from './support/fake-fetch.ts';

const CHANNELS = { data: [{ code: 'WEB_DE' }] };
const CREDITS = { remaining: 150, refill: null, refillsAt: null };

function clientWith(fake: ReturnType<typeof fakeFetch>) {
  const timer = fakeSleep();
  const client = createKeygateClient({
    baseUrl: 'https://gw.test',
    apiKey: 'kg_live_secret',
    fetch: fake.fetch,
    sleep: timer.sleep,
  });
  return { client, delays: timer.delays };
}

/** The gateway's 429 for a spent budget: `retryAfter` undefined means nothing refills it. */
function budgetRefusal(
  code: string,
  retryAfter?: number,
  extensions: Record<string, unknown> = {},
): FakeAnswer {
  const headers: Record<string, string> =
    retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) };
  const body = problemBody(code, 429, { ...extensions, ...(retryAfter === undefined ? {} : { retryAfter }) });
  return { status: 429, headers, body };
}

/** The key-store's 409 while the first request with the same Idempotency-Key still runs. */
function keyInUse(retryAfter?: number): FakeAnswer {
  return {
    status: 409,
    headers: retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) },
    body: problemBody('IDEMPOTENCY_KEY_IN_USE', 409, retryAfter === undefined ? {} : { retryAfter }),
  };
}

describe('retrying a spent quota or balance (429 QUOTA_EXCEEDED, CREDITS_EXHAUSTED)', () => {
  it('does not sleep until tomorrow on a day quota: the typed error comes back at once', async () => {
    const fake = fakeFetch(
      budgetRefusal('QUOTA_EXCEEDED', 40_000, { policy: 'day', limit: 2 }),
      ok(CHANNELS),
    );
    const { client, delays } = clientWith(fake);
    const failure = await unwrap(client.GET('/v2/channels')).catch((error: unknown) => error);
    assert.ok(failure instanceof KeygateRateLimitError);
    assert.ok(failure instanceof KeygateProblemError);
    assert.equal(failure.code, ProblemCode.QUOTA_EXCEEDED);
    assert.equal(failure.retryAfter, 40_000);
    assert.equal(failure.policy, 'day');
    assert.deepEqual(delays, []);
    assert.equal(fake.seen.length, 1);
  });

  it('retries a quota that resets within the short limit after its Retry-After', async () => {
    const fake = fakeFetch(
      budgetRefusal('QUOTA_EXCEEDED', BUDGET_RETRY_AFTER_LIMIT_SECONDS, { policy: 'day' }),
      ok(CHANNELS),
    );
    const { client, delays } = clientWith(fake);
    assert.deepEqual(await unwrap(client.GET('/v2/channels')), CHANNELS);
    assert.deepEqual(delays, [BUDGET_RETRY_AFTER_LIMIT_SECONDS * 1000]);
  });

  it('never retries CREDITS_EXHAUSTED without Retry-After, even with RateLimit headers to fall back on', async () => {
    const refusal = budgetRefusal('CREDITS_EXHAUSTED');
    refusal.headers = { 'ratelimit-policy': '"minute";q=100;w=60', ratelimit: '"minute";r=99;t=5' };
    const fake = fakeFetch(refusal, ok(CHANNELS));
    const { client, delays } = clientWith(fake);
    const failure = await unwrap(client.GET('/v2/channels')).catch((error: unknown) => error);
    assert.ok(failure instanceof KeygateRateLimitError);
    assert.equal(failure.code, 'CREDITS_EXHAUSTED');
    assert.equal(failure.retryAfter, undefined);
    assert.deepEqual(delays, []);
    assert.equal(fake.seen.length, 1);
  });

  it('retries CREDITS_EXHAUSTED whose refill is seconds away', async () => {
    const fake = fakeFetch(budgetRefusal('CREDITS_EXHAUSTED', 3), ok(CHANNELS));
    const { client, delays } = clientWith(fake);
    assert.deepEqual(await unwrap(client.GET('/v2/channels')), CHANNELS);
    assert.deepEqual(delays, [3000]);
  });
});

describe('retrying 409 IDEMPOTENCY_KEY_IN_USE', () => {
  const path = '/v2/auth/identities/{id}/credits' as const;
  const init = { params: { path: { id: 'idt_1' } }, body: { increment: 50 } };

  it('sends the POST again after Retry-After with the same Idempotency-Key and body', async () => {
    const fake = fakeFetch(keyInUse(2), { status: 200, body: CREDITS });
    const { client, delays } = clientWith(fake);
    assert.deepEqual(await unwrap(client.POST(path, init)), CREDITS);
    assert.deepEqual(delays, [2000]);
    const [first, second] = fake.seen;
    assert.ok(first?.headers.get('idempotency-key'));
    assert.equal(second?.headers.get('idempotency-key'), first?.headers.get('idempotency-key'));
    assert.equal(second?.body, '{"increment":50}');
  });

  it('waits the backoff when the 409 names no Retry-After', async () => {
    const fake = fakeFetch(keyInUse(), { status: 200, body: CREDITS });
    const { client, delays } = clientWith(fake);
    await unwrap(client.POST(path, init));
    assert.deepEqual(delays, [1000]);
  });

  it('does not retry another 409 (a conflict that a repeat cannot fix)', async () => {
    const fake = fakeFetch(
      { status: 409, body: problemBody('IDENTITY_EXISTS', 409) },
      { status: 201, body: {} },
    );
    const { client, delays } = clientWith(fake);
    const { error } = await client.POST('/v2/auth/identities', { body: { externalId: 'acme' } });
    assert.equal(error?.code, ProblemCode.IDENTITY_EXISTS);
    assert.deepEqual(delays, []);
    assert.equal(fake.seen.length, 1);
  });

  it('gives up after maxRetries and returns the last 409', async () => {
    const fake = fakeFetch(keyInUse(1));
    const { client, delays } = clientWith(fake);
    const { error } = await client.POST(path, init);
    assert.equal(error?.code, 'IDEMPOTENCY_KEY_IN_USE');
    assert.deepEqual(delays, [1000, 1000]);
    assert.equal(fake.seen.length, 3);
  });
});

describe('identities and the billing export', () => {
  const identity = (id: string) => ({
    id,
    externalId: `ext-${id}`,
    environment: 'live',
    planId: null,
    meta: {},
    limits: [],
    quotas: [],
    credits: null,
    createdAt: '2026-11-28T10:00:00Z',
    updatedAt: '2026-11-28T10:00:00Z',
    version: 1,
  });

  it('walks every identity across pages with paginate', async () => {
    const fake = fakeFetch(
      { status: 200, body: { items: [identity('idt_1'), identity('idt_2')], nextCursor: 'c2' } },
      { status: 200, body: { items: [identity('idt_3')], nextCursor: null } },
    );
    const { client } = clientWith(fake);
    const ids: string[] = [];
    for await (const found of client.paginate('/v2/auth/identities', { params: { query: { limit: 2 } } })) {
      ids.push(found.id);
    }
    assert.deepEqual(ids, ['idt_1', 'idt_2', 'idt_3']);
    assert.deepEqual(
      fake.seen.map((seen) => new URL(seen.url).search),
      ['?limit=2', '?limit=2&cursor=c2'],
    );
  });

  it('reads the export as text or as a stream', async () => {
    const csv = 'period,subject_type,subject_id,external_id,environment,outcome,calls,cost\n';
    const fake = fakeFetch({ status: 200, headers: { 'content-type': 'text/csv' }, body: csv });
    const { client } = clientWith(fake);
    const query = { period: '2026-11', format: 'csv' as const };
    const { data: text } = await client.GET('/v2/auth/usage/export', { params: { query }, parseAs: 'text' });
    assert.equal(text, csv);
    const { data: stream } = await client.GET('/v2/auth/usage/export', {
      params: { query },
      parseAs: 'stream',
    });
    assert.ok(stream);
    assert.equal(await new Response(stream).text(), csv);
  });
});
