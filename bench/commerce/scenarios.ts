/** The commerce requests the bench and `bench/commerce/drive.ts` measure (paths as sent, GET). */

export interface CommerceScenario {
  id: string;
  label: string;
  /** Path and query. */
  path: string;
  headers: Record<string, string>;
}

/** A gold customer with agreements (KG-00003, KG-00004) in the seed. */
export const GOLD_CUSTOMER = 'cus_0003';

export const GRAPHQL_PRODUCTS_QUERY =
  '{ products(channel: WEB_DE, first: 50) { id sku name price(tier: "gold") { amount currency } stock { available } } }';

const channel = { 'X-Channel': 'WEB_DE' };

export const COMMERCE_SCENARIOS: CommerceScenario[] = [
  {
    id: 'catalog',
    label: 'catalogue page of 50, WEB_DE, anonymous',
    path: '/v2/catalog/products?limit=50',
    headers: channel,
  },
  {
    id: 'catalog-customer',
    label: 'catalogue page of 50, WEB_DE, gold customer with agreements',
    path: `/v2/catalog/products?limit=50&customer=${GOLD_CUSTOMER}`,
    headers: channel,
  },
  {
    id: 'graphql',
    label: 'GraphQL products(channel: WEB_DE, first: 50)',
    path: `/v2/graphql?query=${encodeURIComponent(GRAPHQL_PRODUCTS_QUERY)}`,
    headers: {},
  },
  {
    id: 'pricing',
    label: 'customer pricing, a page of 100 for a gold customer',
    path: `/v2/customers/${GOLD_CUSTOMER}/pricing?limit=100`,
    headers: {},
  },
];
