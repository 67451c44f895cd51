import type { Channel, Customer, PriceRow, ProductPageQuery, StockedProduct } from './types.ts';

/**
 * The catalogue's storage port. Calls are synchronous (SQLite via better-sqlite3); stores
 * return null or [] for "not found" and throw only on I/O failure. Each method is one query,
 * which is what keeps a catalogue page at a fixed number of queries.
 */
export interface CatalogStore {
  /** Every channel, ordered by code. */
  listChannels(): Channel[];
  /** The channel with this code, or null. */
  findChannel(code: string): Channel | null;
  /** The customer with this id, or null. */
  findCustomer(id: string): Customer | null;
  /** VAT rates of one country, keyed by tax class, in basis points. */
  listVatRates(country: string): Map<string, number>;
  /** VAT rates of every country: country → tax class → basis points. */
  listAllVatRates(): Map<string, Map<string, number>>;
  /**
   * Up to `limit` products sold in the channel (a base price valid at `at` from quantity 1),
   * ordered by SKU, after `afterSku`, with their stock.
   */
  listSellableProducts(query: ProductPageQuery): StockedProduct[];
  /** The product with this SKU and its stock, or null. */
  findProductBySku(sku: string): StockedProduct | null;
  /** Products by id with their stock, in no particular order. */
  listProductsByIds(ids: readonly string[]): StockedProduct[];
  /** Every price row of these products in this channel. */
  listPrices(channelCode: string, productIds: readonly string[]): PriceRow[];
  /**
   * Up to `limit` products with an agreement row for the customer or a tier row for the tier,
   * ordered by SKU, after `afterSku`, with their stock.
   */
  listProductsPricedFor(query: {
    customerId: string;
    tier: string;
    afterSku: string | null;
    limit: number;
  }): StockedProduct[];
  /** Every price row, in every channel, of these products. */
  listPricesOfProducts(productIds: readonly string[]): PriceRow[];
}
