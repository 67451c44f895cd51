import 'server-only';
import { createHash } from 'node:crypto';
import type { components } from '@keygate/client';
import { unstable_cache } from 'next/cache';
import { cache } from 'react';
import { ApiProblemError, call, keygate } from './api.ts';
import { storefrontEnv } from './env.ts';

export type Channel = components['schemas']['Channel'];
export type ProductPage = components['schemas']['ProductPage'];
export type ProductDetail = components['schemas']['ProductDetail'];
export type UnitPrice = components['schemas']['UnitPrice'];

/**
 * Cache tags. Catalogue reads are cached on the server (no rebuild needed to see changes): the
 * webhook receiver expires CATALOG_TAG on stock and pricing events, and entries expire on their own
 * after CATALOG_TTL_SECONDS in case an event is lost.
 */
export const CATALOG_TAG = 'keygate-catalog';
export const CHANNELS_TAG = 'keygate-channels';
const CATALOG_TTL_SECONDS = 300;

/**
 * Part of every cache key: a digest of the gateway URL and the key, so shops that share a build
 * directory but use other keys (test and live, other customers' keys) never share cached data.
 */
function cacheScope(): string {
  const { KEYGATE_BASE_URL, KEYGATE_API_KEY } = storefrontEnv();
  return createHash('sha256').update(`${KEYGATE_BASE_URL}\n${KEYGATE_API_KEY}`).digest('hex').slice(0, 24);
}

const cachedChannels = unstable_cache(
  async (_scope: string): Promise<Channel[]> => (await call(() => keygate().GET('/v2/channels'))).data,
  ['channels'],
  { tags: [CHANNELS_TAG], revalidate: CATALOG_TTL_SECONDS },
);

/** Every channel of the key's environment, ordered by code. */
export function listChannels(): Promise<Channel[]> {
  return cachedChannels(cacheScope());
}

/** The channel with this code, or null when the environment has none. */
export async function findChannel(code: string): Promise<Channel | null> {
  return (await listChannels()).find((channel) => channel.code === code) ?? null;
}

export interface ListQuery {
  channel: string;
  customer: string | null;
  q: string | null;
  inStock: boolean;
  cursor: string | null;
  limit: number;
}

const cachedProducts = unstable_cache(
  async (_scope: string, query: ListQuery): Promise<ProductPage> =>
    call(() =>
      keygate().GET('/v2/catalog/products', {
        params: {
          header: { 'X-Channel': query.channel },
          query: {
            limit: query.limit,
            ...(query.customer ? { customer: query.customer } : {}),
            ...(query.q ? { q: query.q } : {}),
            ...(query.inStock ? { inStock: 'true' as const } : {}),
            ...(query.cursor ? { cursor: query.cursor } : {}),
          },
        },
      }),
    ),
  ['products'],
  { tags: [CATALOG_TAG], revalidate: CATALOG_TTL_SECONDS },
);

/** One page of the channel's products as the customer (or a guest) sees them. */
export function listProducts(query: ListQuery): Promise<ProductPage> {
  return cachedProducts(cacheScope(), query);
}

/** One product, with the quantity breaks that apply to the customer. */
export interface ProductView {
  detail: ProductDetail;
  /** Unit prices from each break quantity up, lowest quantity first (the first is the 1-unit price). */
  breaks: UnitPrice[];
}

/**
 * Quantities asked for in one GraphQL query; each answer names the break it falls in
 * (`minQuantity`), so every break at or below 500 that one of these reaches is found.
 */
const PROBE_QUANTITIES = [1, 2, 3, 5, 10, 12, 15, 20, 25, 30, 40, 50, 75, 100, 150, 200, 250, 500];

const BREAKS_QUERY = `query Breaks($channel: Channel!, $q: String!, $customer: ID) {
  products(channel: $channel, q: $q, customer: $customer, first: 100) {
    sku
    ${PROBE_QUANTITIES.map((qty) => `q${qty}: price(quantity: ${qty}) { amount net vat gross vatRate vatRateBp currency source minQuantity }`).join('\n    ')}
  }
}`;

type BreaksResult = { data?: { products: Array<{ sku: string } & Record<string, UnitPrice | null>> } };

async function fetchBreaks(channel: string, sku: string, customer: string | null): Promise<UnitPrice[]> {
  const result = await call(() =>
    keygate().POST('/v2/graphql', {
      body: { query: BREAKS_QUERY, variables: { channel, q: sku, customer } },
    }),
  );
  const product = (result as BreaksResult).data?.products.find((p) => p.sku === sku);
  if (!product) return [];
  const byBreak = new Map<number, UnitPrice>();
  for (const qty of PROBE_QUANTITIES) {
    const price = product[`q${qty}`];
    if (price && typeof price === 'object' && !byBreak.has(price.minQuantity))
      byBreak.set(price.minQuantity, price);
  }
  return [...byBreak.values()].sort((a, b) => a.minQuantity - b.minQuantity);
}

const cachedProduct = unstable_cache(
  async (_scope: string, channel: string, sku: string, customer: string | null): Promise<ProductView> => {
    const detail = await call(() =>
      keygate().GET('/v2/catalog/products/{sku}', {
        params: {
          path: { sku },
          header: { 'X-Channel': channel },
          query: customer ? { customer } : {},
        },
      }),
    );
    const breaks = await fetchBreaks(channel, sku, customer);
    if (breaks.length === 0) {
      throw new ApiProblemError({
        type: 'about:blank',
        title: 'Product not found',
        status: 404,
        code: 'PRODUCT_NOT_FOUND',
        detail: `Product ${sku} is not sold in channel ${channel}.`,
      });
    }
    return { detail, breaks };
  },
  ['product'],
  { tags: [CATALOG_TAG], revalidate: CATALOG_TTL_SECONDS },
);

/**
 * The product as the channel sells it to the customer; PRODUCT_NOT_FOUND as ApiProblemError.
 * Once per request: the page and its metadata both ask.
 */
export const getProduct = cache(
  (channel: string, sku: string, customer: string | null): Promise<ProductView> =>
    cachedProduct(cacheScope(), channel, sku, customer),
);
