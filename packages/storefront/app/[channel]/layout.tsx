import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { ProblemView } from '../../src/components/problem-view.tsx';
import { ShopLink } from '../../src/components/shop-link.tsx';
import { chooseCustomer } from '../../src/lib/actions.ts';
import { attempt } from '../../src/lib/api.ts';
import { listChannels } from '../../src/lib/catalog.ts';
import { buyingAsChoices, currentCustomer } from '../../src/lib/customer.ts';

export default async function ChannelLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ channel: string }>;
}) {
  const { channel: code } = await params;
  const channels = await attempt(() => listChannels());
  if (!channels.ok) {
    return (
      <main id="main" className="page">
        <ProblemView problem={channels.problem} busy={channels.busy} />
      </main>
    );
  }
  const channel = channels.data.find((c) => c.code === code);
  if (!channel) notFound();
  const choices = buyingAsChoices();
  const customer = await currentCustomer();
  return (
    <>
      <header className="site-header">
        <div className="bar">
          <ShopLink href={`/${channel.code}`} className="brand">
            keygate shop
          </ShopLink>
          <nav aria-label="Channels" className="channels">
            <ul>
              {channels.data.map((c) => (
                <li key={c.code}>
                  <ShopLink
                    href={`/${c.code}`}
                    aria-current={c.code === channel.code ? 'page' : undefined}
                    hrefLang="en"
                  >
                    {c.name} <span className="muted">({c.currency})</span>
                  </ShopLink>
                </li>
              ))}
            </ul>
          </nav>
          <nav aria-label="Shop">
            <ul>
              <li>
                <ShopLink href={`/${channel.code}/products`}>All products</ShopLink>
              </li>
              <li>
                <ShopLink href={`/${channel.code}/cart`}>Cart</ShopLink>
              </li>
            </ul>
          </nav>
        </div>
        {choices.length > 0 && (
          <form action={chooseCustomer} className="buying-as">
            <input type="hidden" name="channel" value={channel.code} />
            <label htmlFor="buying-as">Buying as (development)</label>
            <select id="buying-as" name="customer" defaultValue={customer ?? ''}>
              <option value="">Guest (list prices)</option>
              {choices.map((id) => (
                <option key={id} value={id}>
                  {id}
                </option>
              ))}
            </select>
            <button type="submit">Show prices</button>
          </form>
        )}
      </header>
      <main id="main" className="page">
        {children}
      </main>
      <footer className="site-footer">
        <p>
          {channel.name}: prices in {channel.currency},{' '}
          {channel.pricesIncludeVat ? 'VAT included' : 'net, VAT added at checkout'} ({channel.taxCountry}{' '}
          VAT).
          {customer ? ` Prices for customer ${customer}.` : ''}
        </p>
      </footer>
    </>
  );
}
