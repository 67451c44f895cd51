import { attempt } from '../../../src/lib/api.ts';
import { findChannel } from '../../../src/lib/catalog.ts';
import { fetchCataloguePage } from '../../../src/lib/catalogue-walk.ts';
import { requestOrigin } from '../../../src/lib/origin.ts';
import { renderUrlSet, sitemapFileSkus } from '../../../src/lib/sitemap.ts';

export const dynamic = 'force-dynamic';

/** One sitemap file: `/sitemaps/WEB_DE.xml` (the channel's pages and first products), `?from=…` the rest. */
export async function GET(request: Request, { params }: { params: Promise<{ file: string }> }) {
  const code = /^([A-Z][A-Z0-9_]{0,63})\.xml$/.exec((await params).file)?.[1];
  if (!code) return new Response(null, { status: 404 });
  const from = new URL(request.url).searchParams.get('from');
  const origin = await requestOrigin();
  const outcome = await attempt(async () => {
    if (!(await findChannel(code))) return null;
    return sitemapFileSkus((cursor) => fetchCataloguePage(code, cursor), from);
  });
  if (!outcome.ok) {
    const status = outcome.problem.status === 400 ? 404 : 503;
    return new Response(null, { status, headers: status === 503 ? { 'Retry-After': '60' } : {} });
  }
  if (!outcome.data) return new Response(null, { status: 404 });
  const pages = from ? [] : [`/${code}`, `/${code}/products`];
  const products = outcome.data.map((sku) => `/${code}/products/${encodeURIComponent(sku)}`);
  return new Response(renderUrlSet([...pages, ...products].map((path) => `${origin}${path}`)), {
    headers: { 'Content-Type': 'application/xml; charset=utf-8' },
  });
}
