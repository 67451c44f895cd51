import type { ProductPage } from '../lib/catalog.ts';
import { productImages } from '../lib/product-images.ts';
import { Price } from './price.tsx';
import { ProductImage } from './product-image.tsx';
import { ShopLink } from './shop-link.tsx';

/** Stock as words; the number only where it matters (few left). */
export function StockNote({ available }: { available: number }) {
  if (available <= 0) return <span className="stock out">Out of stock</span>;
  if (available < 10) return <span className="stock low">Only {available} left</span>;
  return <span className="stock in">In stock ({available})</span>;
}

/**
 * A page of products as cards linking to their product pages, each with its first image. Only the
 * first card's image is fetched at once: on a phone the others are below the fold.
 */
export function ProductList({ page, headingLevel = 2 }: { page: ProductPage; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  if (page.data.length === 0) return <p>No products match.</p>;
  return (
    <ul className="products" aria-label="Products">
      {page.data.map((product, index) => {
        const image = productImages(product)[0];
        return (
          <li key={product.sku} className="card" data-sku={product.sku}>
            {image && <ProductImage image={image} isFirstSeen={index === 0} />}
            <Heading>
              <ShopLink href={`/${page.channel}/products/${encodeURIComponent(product.sku)}`}>
                {product.name}
              </ShopLink>
            </Heading>
            <p className="muted">SKU {product.sku}</p>
            <p>
              <Price price={product.price} pricesIncludeVat={page.pricesIncludeVat} />
            </p>
            <p>
              <StockNote available={product.stock.available} />
            </p>
          </li>
        );
      })}
    </ul>
  );
}

/** The search form of the listing: text (name or SKU) and "in stock only". */
export function SearchForm({ channel, q, inStock }: { channel: string; q: string; inStock: boolean }) {
  return (
    <search>
      <form action={`/${channel}/products`} method="get" className="search">
        <label htmlFor="q">Search by name or SKU</label>
        <input id="q" name="q" type="search" defaultValue={q} maxLength={100} />
        <span className="checkbox">
          <input id="in-stock" name="inStock" type="checkbox" value="true" defaultChecked={inStock} />
          <label htmlFor="in-stock">In stock only</label>
        </span>
        <button type="submit">Search</button>
      </form>
    </search>
  );
}
