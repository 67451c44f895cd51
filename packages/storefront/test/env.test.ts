import assert from 'node:assert/strict';
import { describeEnvError, StorefrontEnvSchema } from '../src/lib/env.ts';
import { formatMoney, formatVatRate, vatNote } from '../src/lib/money.ts';

const KEY = 'kg_test_AbC123_abcdefghijklmnopqrstuvwxyz0123';

describe('StorefrontEnvSchema', () => {
  it('takes a key and fills the documented defaults', () => {
    const env = StorefrontEnvSchema.parse({ KEYGATE_API_KEY: KEY });
    assert.equal(env.KEYGATE_BASE_URL, 'http://127.0.0.1:8080');
    assert.equal(env.STOREFRONT_DEFAULT_CHANNEL, 'WEB_DE');
    assert.equal(env.STOREFRONT_CUSTOMER, undefined);
  });
  it('reports every bad value on one line, without echoing the key', () => {
    const parsed = StorefrontEnvSchema.safeParse({
      KEYGATE_API_KEY: 'sk_live_secret',
      KEYGATE_BASE_URL: 'not a url',
      STOREFRONT_BUYING_AS: 'yes',
    });
    assert.equal(parsed.success, false);
    const line = describeEnvError(parsed.error!);
    assert.match(line, /KEYGATE_API_KEY must be a keygate API key/);
    assert.match(line, /KEYGATE_BASE_URL must be the gateway URL/);
    assert.match(line, /STOREFRONT_BUYING_AS must be 'true' or 'false'/);
    assert.doesNotMatch(line, /sk_live_secret/);
    assert.doesNotMatch(line, /\n/);
  });
  it('takes a public https origin and image origins, and refuses a path or http image origins', () => {
    const env = StorefrontEnvSchema.parse({
      KEYGATE_API_KEY: KEY,
      STOREFRONT_PUBLIC_URL: 'https://shop.example.com',
      STOREFRONT_IMAGE_ORIGINS: 'https://cdn.example.com https://img.example.com',
    });
    assert.equal(env.STOREFRONT_PUBLIC_URL, 'https://shop.example.com');
    const parsed = StorefrontEnvSchema.safeParse({
      KEYGATE_API_KEY: KEY,
      STOREFRONT_PUBLIC_URL: 'https://shop.example.com/de',
      STOREFRONT_IMAGE_ORIGINS: 'http://cdn.example.com',
    });
    const line = describeEnvError(parsed.error!);
    assert.match(line, /STOREFRONT_PUBLIC_URL must be an origin without a path/);
    assert.match(line, /STOREFRONT_IMAGE_ORIGINS must be space-separated https origins/);
  });
  it('asks for the key when it is missing', () => {
    const parsed = StorefrontEnvSchema.safeParse({});
    assert.match(describeEnvError(parsed.error!), /KEYGATE_API_KEY is required/);
  });
});

describe('money', () => {
  it('formats minor units in the currency', () => {
    assert.equal(formatMoney(1999, 'EUR'), '€19.99');
    assert.equal(formatMoney(2099, 'CHF'), 'CHF\u00a020.99');
    assert.equal(formatMoney(500, 'JPY'), '¥500');
  });
  it('states VAT rates from basis points', () => {
    assert.equal(formatVatRate(1900), '19%');
    assert.equal(formatVatRate(810), '8.1%');
    assert.equal(vatNote(true, 1900), 'incl. 19% VAT');
    assert.equal(vatNote(false, 700), 'excl. 7% VAT');
  });
});
