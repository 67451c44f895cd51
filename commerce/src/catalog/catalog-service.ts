import { CommerceError } from '../errors.ts';
import { type ResolvedPrice, resolvePrice } from '../pricing/resolve-price.ts';
import type { CustomerTier } from '../pricing/types.ts';
import type { CatalogStore } from './catalog-store.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import type { Channel, Customer, PriceRow, StockedProduct, StockLevel } from './types.ts';

/** Everything pricing needs besides the product: loaded once per request. */
export interface PricingContext {
  channel: Channel;
  customer: Customer | null;
  /** Tax class → basis points, for the channel's tax country. */
  vatRates: Map<string, number>;
  at: Date;
}

/** A product with every price row it has in the context's channel. */
export interface CatalogEntry {
  product: StockedProduct;
  prices: PriceRow[];
}

export interface CatalogPage {
  context: PricingContext;
  entries: CatalogEntry[];
  /** Opaque cursor of the next page, or null on the last page. */
  nextCursor: string | null;
}

export interface ListProductsInput {
  channelCode: string;
  customerId: string | null;
  inStock: boolean | null;
  /** Text the name or SKU must contain (any case); null: no search. */
  search: string | null;
  limit: number;
  cursor: string | null;
}

export interface CatalogService {
  /** Every channel, ordered by code. */
  listChannels(): Channel[];
  /** Loads channel, customer and VAT rates (UNKNOWN_CHANNEL / UNKNOWN_CUSTOMER when absent). */
  loadContext(channelCode: string, customerId: string | null): PricingContext;
  /** One page of the channel's products, in a fixed number of queries whatever the page size. */
  listProducts(input: ListProductsInput): CatalogPage;
  /** One product as the channel sells it (PRODUCT_NOT_FOUND when unknown or not sold there). */
  getProduct(input: { channelCode: string; customerId: string | null; sku: string }): CatalogPage;
  /** The unit price of an entry; `tier` overrides the customer's tier. Pure, no query. */
  priceEntry(
    entry: CatalogEntry,
    context: PricingContext,
    options?: { quantity?: number; tier?: CustomerTier | null },
  ): ResolvedPrice | null;
  /** Stock of one product by SKU (PRODUCT_NOT_FOUND when unknown). */
  getStock(sku: string): { sku: string } & StockLevel;
}

/** The VAT rate of a tax class in the context's country; a missing rate is a data error (500). */
export function vatRateOf(vatRates: Map<string, number>, country: string, taxClass: string): number {
  const rate = vatRates.get(taxClass);
  if (rate === undefined) throw new Error(`no VAT rate for ${country}/${taxClass}`);
  return rate;
}

/** The unit price of an entry in a context; `tier` overrides the customer's tier. Pure, no query. */
export function priceEntry(
  entry: CatalogEntry,
  context: PricingContext,
  options: { quantity?: number; tier?: CustomerTier | null } = {},
): ResolvedPrice | null {
  const { channel, customer } = context;
  return resolvePrice({
    candidates: entry.prices,
    buyer: { customerId: customer?.id ?? null, tier: options.tier ?? customer?.tier ?? null },
    quantity: options.quantity ?? 1,
    at: context.at,
    channel,
    vatRateBp: vatRateOf(context.vatRates, channel.taxCountry, entry.product.taxClass),
  });
}

/** Builds the catalogue service on a store and a clock. */
export function createCatalogService(deps: { store: CatalogStore; clock: () => Date }): CatalogService {
  const { store, clock } = deps;

  function loadContext(channelCode: string, customerId: string | null): PricingContext {
    const channel = store.findChannel(channelCode);
    if (!channel) throw new CommerceError('UNKNOWN_CHANNEL', `There is no channel ${channelCode}.`);
    const customer = customerId === null ? null : store.findCustomer(customerId);
    if (customerId !== null && !customer) {
      throw new CommerceError('UNKNOWN_CUSTOMER', `There is no customer ${customerId}.`);
    }
    return { channel, customer, vatRates: store.listVatRates(channel.taxCountry), at: clock() };
  }

  function attachPrices(context: PricingContext, products: StockedProduct[]): CatalogEntry[] {
    const rows = store.listPrices(
      context.channel.code,
      products.map((p) => p.id),
    );
    const byProduct = Map.groupBy(rows, (r) => r.productId);
    return products.map((product) => ({ product, prices: byProduct.get(product.id) ?? [] }));
  }

  return {
    listChannels: () => store.listChannels(),
    loadContext,
    priceEntry,
    listProducts(input) {
      const afterSku = input.cursor === null ? null : decodeCursor(input.cursor);
      const context = loadContext(input.channelCode, input.customerId);
      const rows = store.listSellableProducts({
        channelCode: context.channel.code,
        at: context.at,
        afterSku,
        inStock: input.inStock,
        search: input.search,
        limit: input.limit + 1,
      });
      const page = rows.slice(0, input.limit);
      const last = page.at(-1);
      const nextCursor = rows.length > input.limit && last ? encodeCursor(last.sku) : null;
      return { context, entries: attachPrices(context, page), nextCursor };
    },
    getProduct(input) {
      const context = loadContext(input.channelCode, input.customerId);
      const product = store.findProductBySku(input.sku);
      if (!product) throw new CommerceError('PRODUCT_NOT_FOUND', `There is no product ${input.sku}.`);
      const [entry] = attachPrices(context, [product]);
      if (!entry || !isSellable(entry, context)) {
        throw new CommerceError(
          'PRODUCT_NOT_FOUND',
          `Product ${input.sku} is not sold in channel ${context.channel.code}.`,
        );
      }
      return { context, entries: [entry], nextCursor: null };
    },
    getStock(sku) {
      const product = store.findProductBySku(sku);
      if (!product) throw new CommerceError('PRODUCT_NOT_FOUND', `There is no product ${sku}.`);
      return { sku: product.sku, ...product.stock };
    },
  };
}

/**
 * A product is sold in a channel when it has a base price there, valid now, from quantity 1.
 * Such a price applies to every buyer and quantity, so a sellable product always has a price.
 */
export function isSellable(entry: CatalogEntry, context: PricingContext): boolean {
  const price = resolvePrice({
    candidates: entry.prices,
    buyer: { customerId: null, tier: null },
    quantity: 1,
    at: context.at,
    channel: context.channel,
    vatRateBp: 0,
  });
  return price !== null;
}
