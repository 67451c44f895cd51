import type { Metadata } from 'next';
import Link from 'next/link';
import { AddToCartForm } from '../../../../src/components/cart-forms.tsx';
import { Price } from '../../../../src/components/price.tsx';
import { ProblemView } from '../../../../src/components/problem-view.tsx';
import { StockNote } from '../../../../src/components/product-list.tsx';
import { attempt } from '../../../../src/lib/api.ts';
import { getProduct } from '../../../../src/lib/catalog.ts';
import { currentCustomer } from '../../../../src/lib/customer.ts';
import { formatMoney, shownAmount } from '../../../../src/lib/money.ts';

type Params = Promise<{ channel: string; sku: string }>;

/** The SKU of the URL; a malformed escape is kept as typed (the API then answers 404). */
function skuOf(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { sku } = await params;
  return { title: skuOf(sku) };
}

export default async function ProductPage({ params }: { params: Params }) {
  const { channel, sku: rawSku } = await params;
  const sku = skuOf(rawSku);
  const customer = await currentCustomer();
  const outcome = await attempt(() => getProduct(channel, sku, customer));
  if (!outcome.ok) {
    return <ProblemView problem={outcome.problem} busy={outcome.busy} backHref={`/${channel}/products`} />;
  }
  const { detail, breaks } = outcome.data;
  const product = detail.data;
  const { pricesIncludeVat } = detail;
  return (
    <article className="product" aria-labelledby="product-title">
      <p>
        <Link href={`/${channel}/products`}>← All products</Link>
      </p>
      <h1 id="product-title">{product.name}</h1>
      <p className="muted">
        SKU {product.sku} · {product.taxClass} VAT rate
      </p>
      <p className="big-price">
        <Price price={product.price} pricesIncludeVat={pricesIncludeVat} showSource />
      </p>
      {customer && <p className="muted">Prices for customer {customer}.</p>}
      <p data-testid="stock">
        <StockNote available={product.stock.available} />
      </p>
      {breaks.length > 1 && (
        <table className="breaks">
          <caption>Quantity prices (per unit)</caption>
          <thead>
            <tr>
              <th scope="col">From</th>
              <th scope="col">Unit price</th>
            </tr>
          </thead>
          <tbody>
            {breaks.map((price) => (
              <tr key={price.minQuantity}>
                <td>
                  {price.minQuantity} {price.minQuantity === 1 ? 'unit' : 'units'}
                </td>
                <td>{formatMoney(shownAmount(price, pricesIncludeVat), price.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {product.stock.available > 0 ? (
        <AddToCartForm channel={channel} sku={product.sku} max={product.stock.available} />
      ) : (
        <p>This product cannot be ordered right now.</p>
      )}
    </article>
  );
}
