import type { Metadata } from 'next';
import { ProblemView } from '../../../src/components/problem-view.tsx';
import { ProductList, SearchForm } from '../../../src/components/product-list.tsx';
import { ShopLink } from '../../../src/components/shop-link.tsx';
import { attempt } from '../../../src/lib/api.ts';
import { listProducts } from '../../../src/lib/catalog.ts';
import { currentCustomer } from '../../../src/lib/customer.ts';
import { SHOP_NAME } from '../../../src/lib/site.ts';

const PAGE_SIZE = 12;

type Search = { q?: string | string[]; inStock?: string | string[]; cursor?: string | string[] };

function one(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value)?.trim() ?? '';
}

/**
 * The listing is canonical without filters; a cursor page is its own (it lists other products).
 * Search results are left out of search engines, but their links are followed.
 */
export async function generateMetadata({
  params,
  searchParams,
}: {
  params: Promise<{ channel: string }>;
  searchParams: Promise<Search>;
}): Promise<Metadata> {
  const { channel } = await params;
  const search = await searchParams;
  const cursor = one(search.cursor);
  const filtered = one(search.q) !== '' || one(search.inStock) !== '';
  const path = `/${channel}/products${cursor && !filtered ? `?${new URLSearchParams({ cursor })}` : ''}`;
  return {
    title: 'Products',
    description: 'Every product of the shop, with prices and stock.',
    ...(filtered ? {} : { alternates: { canonical: path } }),
    openGraph: { siteName: SHOP_NAME, type: 'website', title: 'Products', url: path },
    ...(filtered ? { robots: { index: false, follow: true } } : {}),
  };
}

export default async function Products({
  params,
  searchParams,
}: {
  params: Promise<{ channel: string }>;
  searchParams: Promise<Search>;
}) {
  const { channel } = await params;
  const search = await searchParams;
  const q = one(search.q).slice(0, 100);
  const inStock = one(search.inStock) === 'true';
  const cursor = one(search.cursor) || null;
  const customer = await currentCustomer();
  const outcome = await attempt(() =>
    listProducts({ channel, customer, q: q || null, inStock, cursor, limit: PAGE_SIZE }),
  );
  const filters = new URLSearchParams({ ...(q ? { q } : {}), ...(inStock ? { inStock: 'true' } : {}) });
  const first = `/${channel}/products${filters.size ? `?${filters}` : ''}`;
  return (
    <>
      <h1>{q ? `Products matching “${q}”` : 'All products'}</h1>
      <SearchForm channel={channel} q={q} inStock={inStock} />
      {outcome.ok ? (
        <>
          <ProductList page={outcome.data} />
          <nav aria-label="Pages" className="pager">
            {cursor && <ShopLink href={first}>First page</ShopLink>}
            {outcome.data.nextCursor && (
              <ShopLink
                href={`/${channel}/products?${new URLSearchParams([...filters, ['cursor', outcome.data.nextCursor]])}`}
                rel="next"
              >
                Next page
              </ShopLink>
            )}
          </nav>
        </>
      ) : (
        <ProblemView problem={outcome.problem} busy={outcome.busy} backHref={`/${channel}/products`} />
      )}
    </>
  );
}
