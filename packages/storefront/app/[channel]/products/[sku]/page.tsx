import type { Metadata } from 'next';
import { AddToCartForm } from '../../../../src/components/cart-forms.tsx';
import { JsonLd } from '../../../../src/components/json-ld.tsx';
import { Price } from '../../../../src/components/price.tsx';
import { ProblemView } from '../../../../src/components/problem-view.tsx';
import { ProductImage } from '../../../../src/components/product-image.tsx';
import { StockNote } from '../../../../src/components/product-list.tsx';
import { ShopLink } from '../../../../src/components/shop-link.tsx';
import { attempt } from '../../../../src/lib/api.ts';
import { getProduct } from '../../../../src/lib/catalog.ts';
import { currentCustomer } from '../../../../src/lib/customer.ts';
import { formatMoney, shownAmount } from '../../../../src/lib/money.ts';
import { requestNonce, requestOrigin } from '../../../../src/lib/origin.ts';
import { productImages } from '../../../../src/lib/product-images.ts';
import { SHOP_NAME } from '../../../../src/lib/site.ts';
import { productJsonLd } from '../../../../src/lib/structured-data.ts';

type Params = Promise<{ channel: string; sku: string }>;

/** The SKU of the URL; a malformed escape is kept as typed (the API then answers 404). */
function skuOf(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** The product page's own URL: each channel's page is canonical (its prices and currency differ). */
function productPath(channel: string, sku: string): string {
  return `/${channel}/products/${encodeURIComponent(sku)}`;
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { channel, sku: rawSku } = await params;
  const sku = skuOf(rawSku);
  const outcome = await attempt(async () => getProduct(channel, sku, await currentCustomer()));
  if (!outcome.ok) return { title: sku, robots: { index: false } };
  const { detail } = outcome.data;
  const product = detail.data;
  const price = formatMoney(shownAmount(product.price, detail.pricesIncludeVat), product.price.currency);
  const description = `${product.name} (SKU ${product.sku}) for ${price}, ${
    product.stock.available > 0 ? 'in stock' : 'out of stock'
  }.`;
  const image = productImages(product)[0];
  return {
    title: product.name,
    description,
    alternates: { canonical: productPath(channel, product.sku) },
    openGraph: {
      siteName: SHOP_NAME,
      type: 'website',
      title: product.name,
      description,
      url: productPath(channel, product.sku),
      ...(image
        ? { images: [{ url: image.src, width: image.width, height: image.height, alt: image.alt }] }
        : {}),
    },
  };
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
  const images = productImages(product);
  const origin = await requestOrigin();
  const structured = productJsonLd({
    sku: product.sku,
    name: product.name,
    amount: shownAmount(product.price, pricesIncludeVat),
    currency: product.price.currency,
    pricesIncludeVat,
    available: product.stock.available,
    url: `${origin}${productPath(channel, product.sku)}`,
    images: images.map((image) => new URL(image.src, origin).href),
  });
  return (
    <article className="product" aria-labelledby="product-title">
      <JsonLd data={structured} nonce={await requestNonce()} />
      <p>
        <ShopLink href={`/${channel}/products`}>← All products</ShopLink>
      </p>
      <h1 id="product-title">{product.name}</h1>
      {images.length > 0 && (
        <div className="gallery">
          {images.map((image, index) => (
            <ProductImage key={image.src} image={image} isFirstSeen={index === 0} />
          ))}
        </div>
      )}
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
