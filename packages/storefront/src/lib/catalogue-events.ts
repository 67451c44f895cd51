/**
 * The commerce events after which cached catalogue data (prices, VAT, stock, a product's images) may
 * be wrong: the storefront's webhook endpoint subscribes to these, and its receiver expires the
 * cache on them.
 * No `server-only` here: `pnpm start:storefront` and the tests register the endpoint with this list.
 */
export const CATALOGUE_EVENTS = [
  'stock.updated',
  'stock.out_of_stock',
  'stock.back_in_stock',
  'pricing.price.created',
  'pricing.price.updated',
  'pricing.price.deleted',
  'pricing.vat_rate.updated',
  'customer.tier_changed',
  'product.updated',
] as const;

/** True for an event after which cached catalogue data may be wrong. */
export function changesCatalogue(type: string): boolean {
  return (CATALOGUE_EVENTS as readonly string[]).includes(type);
}
