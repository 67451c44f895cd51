import {
  type CatalogEntry,
  isSellable,
  type PricingContext,
  priceEntry,
} from '../catalog/catalog-service.ts';
import type { CatalogStore } from '../catalog/catalog-store.ts';
import { decodeCursor, encodeCursor } from '../catalog/cursor.ts';
import type { Channel, Customer, PriceRow, StockedProduct } from '../catalog/types.ts';
import { CommerceError } from '../errors.ts';
import { isValidAt, type ResolvedPrice } from '../pricing/resolve-price.ts';

/** One agreement price row of the customer. */
export interface AgreementView {
  priceId: string;
  sku: string;
  channel: string;
  currency: string;
  /** Integer minor units; gross in VAT-inclusive channels, else net. */
  amount: number;
  minQuantity: number;
  validFrom: string | null;
  validTo: string | null;
  /** True when the row's validity window contains now. */
  isCurrent: boolean;
}

export interface EffectivePriceView {
  sku: string;
  name: string;
  price: ResolvedPrice;
}

export interface CustomerPricing {
  customer: Customer;
  /** Opaque cursor of the next page of products, or null on the last page. */
  nextCursor: string | null;
  agreements: AgreementView[];
  /** Per channel: the products with agreement or tier prices for this customer, priced at qty 1. */
  channels: { channel: Channel; prices: EffectivePriceView[] }[];
}

/**
 * One page of a customer's pricing overview (the products with agreement or tier rows for them,
 * by SKU) in a fixed number of queries: customer, channels, VAT rates, the page's products and
 * their price rows. Agreements and prices are those of the page's products.
 */
export function getCustomerPricing(
  deps: { store: CatalogStore; clock: () => Date },
  customerId: string,
  page: { limit: number; cursor: string | null } = { limit: 50, cursor: null },
): CustomerPricing {
  const afterSku = page.cursor === null ? null : decodeCursor(page.cursor);
  const { store } = deps;
  const customer = store.findCustomer(customerId);
  if (!customer) throw new CommerceError('CUSTOMER_NOT_FOUND', `There is no customer ${customerId}.`);
  const at = deps.clock();
  const channels = store.listChannels();
  const vat = store.listAllVatRates();
  const found = store.listProductsPricedFor({
    customerId: customer.id,
    tier: customer.tier,
    afterSku,
    limit: page.limit + 1,
  });
  const products = found.slice(0, page.limit);
  const last = products.at(-1);
  const nextCursor = found.length > page.limit && last ? encodeCursor(last.sku) : null;
  const rows = store.listPricesOfProducts(products.map((p) => p.id));
  const byChannel = Map.groupBy(rows, (r) => r.channelCode);
  return {
    customer,
    nextCursor,
    agreements: listAgreements(customer, rows, products, channels, at),
    channels: channels.map((channel) => {
      const context: PricingContext = {
        channel,
        customer,
        vatRates: vat.get(channel.taxCountry) ?? new Map<string, number>(),
        at,
      };
      return { channel, prices: priceChannel(context, products, byChannel.get(channel.code) ?? []) };
    }),
  };
}

function listAgreements(
  customer: Customer,
  rows: PriceRow[],
  products: StockedProduct[],
  channels: Channel[],
  at: Date,
): AgreementView[] {
  const skuOf = new Map(products.map((p) => [p.id, p.sku]));
  const currencyOf = new Map(channels.map((c) => [c.code, c.currency]));
  return rows
    .filter((r) => r.level === 'agreement' && r.customerId === customer.id)
    .map(
      (r): AgreementView => ({
        priceId: r.id,
        sku: skuOf.get(r.productId) ?? r.productId,
        channel: r.channelCode,
        currency: currencyOf.get(r.channelCode) ?? '',
        amount: r.amount,
        minQuantity: r.minQuantity,
        validFrom: r.validFrom,
        validTo: r.validTo,
        isCurrent: isValidAt(r, at.getTime()),
      }),
    )
    .sort(
      (a, b) =>
        compareText(a.sku, b.sku) || compareText(a.channel, b.channel) || a.minQuantity - b.minQuantity,
    );
}

/** The channel's personal (agreement or tier) prices at quantity 1, for sellable products only. */
function priceChannel(
  context: PricingContext,
  products: StockedProduct[],
  channelRows: PriceRow[],
): EffectivePriceView[] {
  const customer = context.customer!;
  const rowsOf = Map.groupBy(channelRows, (r) => r.productId);
  const prices: EffectivePriceView[] = [];
  for (const product of products) {
    const entry: CatalogEntry = { product, prices: rowsOf.get(product.id) ?? [] };
    const isPersonal = entry.prices.some(
      (r) =>
        (r.level === 'agreement' && r.customerId === customer.id) ||
        (r.level === 'tier' && r.tierCode === customer.tier),
    );
    if (!isPersonal || !isSellable(entry, context)) continue;
    const price = priceEntry(entry, context);
    if (price) prices.push({ sku: product.sku, name: product.name, price });
  }
  return prices;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
