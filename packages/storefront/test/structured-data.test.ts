import assert from 'node:assert/strict';
import { decimalAmount } from '../src/lib/money.ts';
import { productJsonLd, serializeJsonLd } from '../src/lib/structured-data.ts';

const facts = {
  sku: 'KG-00002',
  name: 'Rustic Oak Planter',
  amount: 1999,
  currency: 'EUR',
  pricesIncludeVat: true,
  available: 3,
  url: 'https://shop.example.com/WEB_DE/products/KG-00002',
  images: ['https://shop.example.com/images/media/kg-2.webp'],
};

describe('productJsonLd()', () => {
  it('describes the Product and its Offer with the shown price, currency and stock', () => {
    const ld = productJsonLd(facts) as Record<string, unknown> & { offers: Record<string, unknown> };
    assert.equal(ld['@type'], 'Product');
    assert.deepEqual(ld.image, facts.images);
    assert.equal(ld.offers.price, '19.99');
    assert.equal(ld.offers.priceCurrency, 'EUR');
    assert.equal(ld.offers.availability, 'https://schema.org/InStock');
    assert.deepEqual((ld.offers.priceSpecification as Record<string, unknown>).valueAddedTaxIncluded, true);
  });
  it('says OutOfStock at zero available and leaves out images it does not have', () => {
    const ld = productJsonLd({ ...facts, available: 0, images: [] }) as Record<string, unknown> & {
      offers: Record<string, unknown>;
    };
    assert.equal(ld.offers.availability, 'https://schema.org/OutOfStock');
    assert.equal('image' in ld, false);
  });
});

describe('serializeJsonLd()', () => {
  it('cannot end its script element, and parses back to the same data', () => {
    const data = { name: '</script><script>alert(1)</script> & \u2028' };
    const text = serializeJsonLd(data);
    assert.doesNotMatch(text, /[<>&\u2028]/);
    assert.deepEqual(JSON.parse(text), data);
  });
});

describe('decimalAmount()', () => {
  it("writes minor units with the currency's digits", () => {
    assert.equal(decimalAmount(1999, 'EUR'), '19.99');
    assert.equal(decimalAmount(2000, 'CHF'), '20.00');
    assert.equal(decimalAmount(500, 'JPY'), '500');
  });
});
