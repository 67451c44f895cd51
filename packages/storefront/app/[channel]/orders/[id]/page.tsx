import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { ProblemView } from '../../../../src/components/problem-view.tsx';
import { ShopLink } from '../../../../src/components/shop-link.tsx';
import { attempt } from '../../../../src/lib/api.ts';
import { readOwnOrder } from '../../../../src/lib/cart.ts';
import { formatMoney } from '../../../../src/lib/money.ts';

/** A visitor's own page: nothing for search engines. */
export const metadata: Metadata = { title: 'Order confirmation', robots: { index: false, follow: false } };

export default async function OrderPage({ params }: { params: Promise<{ channel: string; id: string }> }) {
  const { channel, id } = await params;
  const outcome = await attempt(() => readOwnOrder(id));
  if (!outcome.ok)
    return <ProblemView problem={outcome.problem} busy={outcome.busy} backHref={`/${channel}`} />;
  const order = outcome.data;
  if (!order) notFound();
  const money = (minor: number) => formatMoney(minor, order.currency);
  return (
    <>
      <h1>Thank you for your order</h1>
      <p>
        Order number <strong data-testid="order-id">{order.id}</strong> is {order.status}.
      </p>
      <table className="cart">
        <caption className="visually-hidden">Ordered products</caption>
        <thead>
          <tr>
            <th scope="col">Product</th>
            <th scope="col">Quantity</th>
            <th scope="col">Total (incl. VAT)</th>
          </tr>
        </thead>
        <tbody>
          {order.lines.map((line) => (
            <tr key={line.sku}>
              <th scope="row">
                {line.name} <span className="muted block">SKU {line.sku}</span>
              </th>
              <td>{line.qty}</td>
              <td>{money(line.total.gross)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl className="totals" aria-label="Totals">
        <div>
          <dt>Net</dt>
          <dd>{money(order.totals.net)}</dd>
        </div>
        <div>
          <dt>VAT</dt>
          <dd>{money(order.totals.vat)}</dd>
        </div>
        <div className="grand">
          <dt>Total</dt>
          <dd data-testid="order-total">{money(order.totals.gross)}</dd>
        </div>
      </dl>
      <p>
        <ShopLink href={`/${channel}`}>Continue shopping</ShopLink>
      </p>
    </>
  );
}
