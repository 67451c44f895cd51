import assert from 'node:assert/strict';
import { createKeygateClient, KeygateProblemError, type PagedPath, type PageItem } from '../src/index.ts';
import { fakeFetch, fakeSleep, ok, problemBody, rateLimited } from './support/fake-fetch.ts';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
// Compile-time: every cursor-paged list of the document, and nothing else, can be paginated.
const PAGED: Equal<
  PagedPath,
  | '/v2/auth/alert-endpoints/{id}/deliveries'
  | '/v2/auth/identities'
  | '/v2/auth/keys/{id}/activity'
  | '/v2/auth/keys/{id}/logs'
  | '/v2/catalog/products'
  | '/v2/customers/{id}/pricing'
  | '/v2/webhooks/endpoints/{id}/deliveries'
> = true;
const PRODUCT_ITEM: Equal<PageItem<'/v2/catalog/products'>['sku'], string> = true;

const product = (sku: string) => ({ sku, name: sku });
const page = (skus: string[], nextCursor: string | null) =>
  ok({ channel: 'WEB_DE', data: skus.map(product), nextCursor });

function clientWith(fake: ReturnType<typeof fakeFetch>) {
  const timer = fakeSleep();
  const client = createKeygateClient({
    baseUrl: 'https://gw.test',
    apiKey: 'kg_live_k',
    fetch: fake.fetch,
    sleep: timer.sleep,
  });
  return { client, delays: timer.delays };
}

const CATALOGUE = { params: { header: { 'X-Channel': 'WEB_DE' }, query: { limit: 2 } } } as const;

describe('client.paginate', () => {
  it('is typed by the operation', () => {
    assert.equal(PAGED && PRODUCT_ITEM, true);
  });

  it('yields every item of every page once, following nextCursor until it is null', async () => {
    const fake = fakeFetch(page(['A', 'B'], 'c1'), page(['C', 'D'], 'c2'), page(['E'], null));
    const { client } = clientWith(fake);
    const skus: string[] = [];
    for await (const item of client.paginate('/v2/catalog/products', CATALOGUE)) skus.push(item.sku);
    assert.deepEqual(skus, ['A', 'B', 'C', 'D', 'E']);
    assert.deepEqual(
      fake.seen.map((seen) => new URL(seen.url).search),
      ['?limit=2', '?limit=2&cursor=c1', '?limit=2&cursor=c2'],
    );
    assert.ok(fake.seen.every((seen) => seen.headers.get('x-channel') === 'WEB_DE'));
  });

  it('fetches no further page when the caller leaves the loop', async () => {
    const fake = fakeFetch(page(['A', 'B'], 'c1'), page(['C', 'D'], 'c2'), page(['E'], null));
    const { client } = clientWith(fake);
    for await (const item of client.paginate('/v2/catalog/products', CATALOGUE)) {
      if (item.sku === 'C') break;
    }
    assert.equal(fake.seen.length, 2);
  });

  it('reads `items` pages (activity, API logs) and yields a customer-pricing page whole', async () => {
    const activity = fakeFetch(
      ok({ items: [{ id: 'act_1' }], nextCursor: 'n' }),
      ok({ items: [{ id: 'act_2' }], nextCursor: null }),
    );
    const ids: string[] = [];
    const init = { params: { path: { id: 'key_1' } } };
    for await (const entry of clientWith(activity).client.paginate('/v2/auth/keys/{id}/activity', init))
      ids.push(entry.id);
    assert.deepEqual(ids, ['act_1', 'act_2']);

    const pricing = fakeFetch(ok({ agreements: [{ priceId: 'p1' }], effectivePrices: [], nextCursor: null }));
    const pages = [];
    for await (const one of clientWith(pricing).client.paginate('/v2/customers/{id}/pricing', {
      params: { path: { id: 'cus_1' } },
    })) {
      pages.push(one.agreements.map((row) => row.priceId));
    }
    assert.deepEqual(pages, [['p1']]);
  });

  it('retries a rate-limited page and carries on with the same cursor', async () => {
    const fake = fakeFetch(page(['A'], 'c1'), rateLimited(2), page(['B'], null));
    const { client, delays } = clientWith(fake);
    const skus: string[] = [];
    for await (const item of client.paginate('/v2/catalog/products', CATALOGUE)) skus.push(item.sku);
    assert.deepEqual(skus, ['A', 'B']);
    assert.deepEqual(delays, [2000]);
    assert.equal(new URL(fake.seen[2]?.url ?? '').searchParams.get('cursor'), 'c1');
  });

  it('throws the problem of a page that fails', async () => {
    const fake = fakeFetch(page(['A'], 'c1'), { status: 400, body: problemBody('INVALID_CURSOR', 400) });
    const { client } = clientWith(fake);
    const skus: string[] = [];
    await assert.rejects(
      (async () => {
        for await (const item of client.paginate('/v2/catalog/products', CATALOGUE)) skus.push(item.sku);
      })(),
      (error: unknown) => error instanceof KeygateProblemError && error.code === 'INVALID_CURSOR',
    );
    assert.deepEqual(skus, ['A']);
  });

  it('stops with an error instead of looping when a cursor comes back twice', async () => {
    const fake = fakeFetch(page(['A'], 'c1'), page(['B'], 'c1'));
    const { client } = clientWith(fake);
    await assert.rejects(async () => {
      for await (const _ of client.paginate('/v2/catalog/products', CATALOGUE));
    }, /returned the cursor c1 twice/);
    assert.equal(fake.seen.length, 2);
  });
});
