import { changeTags } from '../db/change-log.ts';
import type { CatalogPage } from './catalog-service.ts';

/** Which answer a page is: a list (its membership can change) or one product by SKU. */
export type PageShape = { kind: 'list'; inStock: boolean | null } | { kind: 'product'; sku: string };

/**
 * The change-log tags of what a catalogue answer read (src/db/change-log.ts), for the response
 * cache: the channel, its country's VAT rates, the customer (their tier), and the stock and the
 * channel's price rows of each product shown. A list also depends on what decides which products
 * are on it: any product row (SKU order, search), the channel's base prices (what it sells) and,
 * when filtered by stock, any stock row. Agreement and tier rows decide no membership: they only
 * change the prices of the products they name, which `priceOf` covers.
 */
export function dependenciesOfPage(page: CatalogPage, shape: PageShape): string[] {
  const { channel, customer } = page.context;
  const tags: string[] = [changeTags.channels, changeTags.vatOf(channel.taxCountry)];
  if (customer) tags.push(changeTags.customer(customer.id));
  if (shape.kind === 'product') tags.push(changeTags.sku(shape.sku));
  else {
    tags.push(changeTags.products, changeTags.sellableIn(channel.code));
    if (shape.inStock !== null) tags.push(changeTags.stock);
  }
  for (const { product } of page.entries) {
    tags.push(changeTags.stockOf(product.id), changeTags.priceOf(channel.code, product.id));
  }
  return tags;
}
