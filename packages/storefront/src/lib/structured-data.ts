import { decimalAmount } from './money.ts';

/** What the product page knows that search engines are told. */
export interface ProductFacts {
  sku: string;
  name: string;
  /** The unit price the page shows (gross or net, as the channel shows prices), in minor units. */
  amount: number;
  currency: string;
  pricesIncludeVat: boolean;
  available: number;
  /** Absolute URLs of the product page and its images. */
  url: string;
  images: string[];
}

/**
 * schema.org `Product` with its `Offer`: the price and currency the page shows, availability from
 * stock, and whether VAT is included (B2B channels show net prices).
 */
export function productJsonLd(facts: ProductFacts): Record<string, unknown> {
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: facts.name,
    sku: facts.sku,
    url: facts.url,
    ...(facts.images.length > 0 ? { image: facts.images } : {}),
    offers: {
      '@type': 'Offer',
      url: facts.url,
      price: decimalAmount(facts.amount, facts.currency),
      priceCurrency: facts.currency,
      availability: facts.available > 0 ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
      itemCondition: 'https://schema.org/NewCondition',
      priceSpecification: {
        '@type': 'UnitPriceSpecification',
        price: decimalAmount(facts.amount, facts.currency),
        priceCurrency: facts.currency,
        valueAddedTaxIncluded: facts.pricesIncludeVat,
      },
    },
  };
}

/**
 * JSON for a <script type="application/ld+json"> element. `<` and `>` are escaped (a name holding
 * `</script>` cannot end the element), `&` too, and U+2028/9 for old parsers; all stay valid JSON.
 */
export function serializeJsonLd(data: unknown): string {
  return JSON.stringify(data).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
