import type { Metadata } from 'next';
import { CheckoutForm, QuantityForm, RemoveForm } from '../../../src/components/cart-forms.tsx';
import { ProblemView } from '../../../src/components/problem-view.tsx';
import { ShopLink } from '../../../src/components/shop-link.tsx';
import { attempt } from '../../../src/lib/api.ts';
import { readCart } from '../../../src/lib/cart.ts';
import { formatMoney, shownAmount } from '../../../src/lib/money.ts';

/** A visitor's own page: nothing for search engines. */
export const metadata: Metadata = { title: 'Cart', robots: { index: false, follow: false } };

export default async function CartPage({ params }: { params: Promise<{ channel: string }> }) {
  const { channel } = await params;
  const outcome = await attempt(() => readCart(channel));
  if (!outcome.ok)
    return <ProblemView problem={outcome.problem} busy={outcome.busy} backHref={`/${channel}`} />;
  const cart = outcome.data;
  if (!cart || cart.lines.length === 0) {
    return (
      <>
        <h1>Your cart</h1>
        <p>Your cart is empty.</p>
        <p>
          <ShopLink href={`/${channel}/products`}>Browse the products</ShopLink>
        </p>
      </>
    );
  }
  const money = (minor: number) => formatMoney(minor, cart.currency);
  const gross = cart.pricesIncludeVat;
  return (
    <>
      <h1>Your cart</h1>
      <table className="cart">
        <caption className="visually-hidden">Products in your cart</caption>
        <thead>
          <tr>
            <th scope="col">Product</th>
            <th scope="col">Unit price ({gross ? 'incl.' : 'excl.'} VAT)</th>
            <th scope="col">Quantity</th>
            <th scope="col">Total</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {cart.lines.map((line) => (
            <tr key={line.sku} data-sku={line.sku}>
              <th scope="row">
                <ShopLink href={`/${channel}/products/${encodeURIComponent(line.sku)}`}>{line.name}</ShopLink>
                <span className="muted block">SKU {line.sku}</span>
              </th>
              <td>{line.unitPrice ? money(shownAmount(line.unitPrice, gross)) : 'No longer sold'}</td>
              <td>
                <QuantityForm channel={channel} sku={line.sku} name={line.name} qty={line.qty} />
              </td>
              <td data-testid="line-total">{line.total ? money(shownAmount(line.total, gross)) : '–'}</td>
              <td>
                <RemoveForm channel={channel} sku={line.sku} name={line.name} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl className="totals" aria-label="Totals">
        <div>
          <dt>Net</dt>
          <dd data-testid="total-net">{money(cart.totals.net)}</dd>
        </div>
        <div>
          <dt>VAT</dt>
          <dd data-testid="total-vat">{money(cart.totals.vat)}</dd>
        </div>
        <div className="grand">
          <dt>Total</dt>
          <dd data-testid="total-gross">{money(cart.totals.gross)}</dd>
        </div>
      </dl>
      <CheckoutForm channel={channel} />
    </>
  );
}
