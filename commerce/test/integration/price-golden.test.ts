import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { CUSTOMERS } from '../../src/seed/seed-fixtures.ts';
import { createTestApp, type TestApp } from '../support/app.ts';

/**
 * Every price, VAT figure and stock level the catalogue, GraphQL and customer pricing answer for
 * the seeded database, for every seeded customer (and no customer) in every channel, compared
 * with a snapshot taken from the code before the performance work (test/golden/prices.json).
 * Speed-ups must not change a single figure. `UPDATE_GOLDEN=1` rewrites the snapshot: only do that
 * for a deliberate change of prices, and say so in the commit.
 */

const GOLDEN = new URL('../golden/prices.json', import.meta.url);
/** More products than the default seed, so pages continue and every product feature repeats. */
const PRODUCTS = 50;
const CHANNELS = ['B2B_DE', 'WEB_CH', 'WEB_DE'];
const BUYERS = [null, ...CUSTOMERS.map((c) => c.id)];
/** Tier overrides: `retail` has no tier prices, so one paid tier besides it is enough. */
const TIERS = ['retail', 'gold'];

const PRICE_FIELDS = 'amount net vat gross vatRate vatRateBp currency source minQuantity';
const TIER_FIELDS = 'gross source minQuantity';
const GRAPHQL_PRODUCTS = `query ($channel: Channel!, $customer: ID, $after: String) {
  products(channel: $channel, customer: $customer, first: 40, after: $after) {
    id sku name taxClass cursor stock { available }
    price { ${PRICE_FIELDS} }
    q10: price(quantity: 10) { ${TIER_FIELDS} }
    q50: price(quantity: 50) { ${TIER_FIELDS} }
    ${TIERS.map((tier) => `${tier}: price(tier: "${tier}") { ${TIER_FIELDS} }`).join('\n    ')}
    gold50: price(tier: "gold", quantity: 50) { ${TIER_FIELDS} }
  }
}`;

type Json = Record<string, unknown>;

async function catalogue(t: TestApp, channel: string, customer: string | null): Promise<Json[]> {
  const items: Json[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ limit: '45' });
    if (customer) query.set('customer', customer);
    if (cursor) query.set('cursor', cursor);
    const res = await t.get(`/v2/catalog/products?${query}`, { headers: { 'X-Channel': channel } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    // Images are no price, VAT or stock figure (catalog-images.test.ts covers them).
    items.push(...(res.body.data as Json[]).map(({ images: _images, ...item }) => item));
    cursor = res.body.nextCursor;
  } while (cursor);
  return items;
}

async function graphql(t: TestApp, channel: string, customer: string | null): Promise<Json[]> {
  const items: Json[] = [];
  let after: string | null = null;
  for (;;) {
    const res = await t.post('/v2/graphql', {
      query: GRAPHQL_PRODUCTS,
      variables: { channel, customer, after },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.errors, undefined, JSON.stringify(res.body.errors));
    const page = res.body.data.products as Json[];
    if (page.length === 0) return items;
    items.push(...page);
    after = String(page.at(-1)?.cursor);
  }
}

/** A customer's pricing overview; pages, when the route has them, are joined into one. */
async function pricing(t: TestApp, customer: string): Promise<Json> {
  let cursor: string | null = null;
  let joined: { customer: Json; agreements: Json[]; effectivePrices: Map<string, Json> } | null = null;
  do {
    const query = cursor ? `?limit=37&cursor=${cursor}` : '?limit=37';
    const res = await t.get(`/v2/customers/${customer}/pricing${query}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    joined ??= { customer: res.body.customer, agreements: [], effectivePrices: new Map() };
    joined.agreements.push(...res.body.agreements);
    for (const channel of res.body.effectivePrices as Array<Json & { prices: Json[] }>) {
      const known = joined.effectivePrices.get(String(channel.channel)) as { prices: Json[] } | undefined;
      if (known) known.prices.push(...channel.prices);
      else joined.effectivePrices.set(String(channel.channel), { ...channel, prices: [...channel.prices] });
    }
    cursor = res.body.nextCursor ?? null;
  } while (cursor);
  assert.ok(joined);
  return { ...joined, effectivePrices: [...joined.effectivePrices.values()] };
}

describe('prices, VAT and stock against the golden snapshot', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ products: PRODUCTS });
  });
  after(() => t.close());

  it('answers every page of every channel, for every seeded customer, as the snapshot does', async () => {
    const actual: Record<string, unknown> = {};
    for (const channel of CHANNELS) {
      for (const buyer of BUYERS) {
        const key = `${channel}/${buyer ?? 'anonymous'}`;
        actual[`catalogue ${key}`] = await catalogue(t, channel, buyer);
        actual[`graphql ${key}`] = await graphql(t, channel, buyer);
      }
    }
    for (const customer of CUSTOMERS) actual[`pricing ${customer.id}`] = await pricing(t, customer.id);
    const text = `{\n${Object.entries(actual)
      .map(([key, value]) => `${JSON.stringify(key)}: ${JSON.stringify(value)}`)
      .join(',\n')}\n}\n`;
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(GOLDEN, text);
    const golden = JSON.parse(readFileSync(GOLDEN, 'utf8')) as Record<string, unknown>;
    assert.deepEqual(Object.keys(actual), Object.keys(golden));
    for (const key of Object.keys(golden)) assert.deepEqual(actual[key], golden[key], key);
  });
});
