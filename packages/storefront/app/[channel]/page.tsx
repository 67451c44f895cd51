import type { Metadata } from 'next';
import { ProblemView } from '../../src/components/problem-view.tsx';
import { ProductList, SearchForm } from '../../src/components/product-list.tsx';
import { ShopLink } from '../../src/components/shop-link.tsx';
import { attempt } from '../../src/lib/api.ts';
import { findChannel, listProducts } from '../../src/lib/catalog.ts';
import { currentCustomer } from '../../src/lib/customer.ts';
import { SHOP_NAME } from '../../src/lib/site.ts';

export async function generateMetadata({
  params,
}: {
  params: Promise<{ channel: string }>;
}): Promise<Metadata> {
  const { channel: code } = await params;
  const channel = await attempt(() => findChannel(code));
  const name = channel.ok && channel.data ? channel.data.name : code;
  const description =
    channel.ok && channel.data
      ? `${name}: the keygate shop's products with prices in ${channel.data.currency}.`
      : undefined;
  return {
    title: { absolute: `${name} · keygate shop` },
    ...(description ? { description } : {}),
    alternates: { canonical: `/${code}` },
    openGraph: {
      siteName: SHOP_NAME,
      type: 'website',
      title: name,
      url: `/${code}`,
      ...(description ? { description } : {}),
    },
  };
}

export default async function ChannelHome({ params }: { params: Promise<{ channel: string }> }) {
  const { channel: code } = await params;
  const customer = await currentCustomer();
  const outcome = await attempt(async () => ({
    channel: await findChannel(code),
    page: await listProducts({ channel: code, customer, q: null, inStock: true, cursor: null, limit: 8 }),
  }));
  if (!outcome.ok) return <ProblemView problem={outcome.problem} busy={outcome.busy} />;
  const { channel, page } = outcome.data;
  return (
    <>
      <section className="hero" aria-labelledby="home-title">
        <h1 id="home-title">{channel?.name ?? code}</h1>
        <p data-testid="channel-currency">
          Prices in <strong>{page.currency}</strong>,{' '}
          {page.pricesIncludeVat ? 'VAT included' : 'shown net; VAT is added'}.
        </p>
        <SearchForm channel={code} q="" inStock={false} />
      </section>
      <section aria-labelledby="featured-title">
        <h2 id="featured-title">In stock now</h2>
        <ProductList page={page} headingLevel={3} />
        <p>
          <ShopLink href={`/${code}/products`}>See all products</ShopLink>
        </p>
      </section>
    </>
  );
}
