import 'server-only';
import { listProducts } from './catalog.ts';
import type { CataloguePage } from './sitemap.ts';
import { SITEMAP_PAGE_SIZE } from './sitemap.ts';

/** One page of the channel's whole catalogue as a guest sees it (cached like the listing). */
export async function fetchCataloguePage(channel: string, cursor: string | null): Promise<CataloguePage> {
  const page = await listProducts({
    channel,
    customer: null,
    q: null,
    inStock: false,
    cursor,
    limit: SITEMAP_PAGE_SIZE,
  });
  return { skus: page.data.map((product) => product.sku), nextCursor: page.nextCursor };
}
