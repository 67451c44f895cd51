import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { createKeygateClient, type KeygateClient } from '@keygate/client';
import { runCommand } from '../support/packages.ts';
import { ROOT } from '../support/processes.ts';
import { type System, startSystem } from '../support/system.ts';

const PRODUCTS = 10_000;
const PAGE = 100;
/** The SKUs the seed gives commerce live, every one sold in WEB_DE: KG-00001 … KG-10000. */
const SEEDED = Array.from({ length: PRODUCTS }, (_, i) => `KG-${String(i + 1).padStart(5, '0')}`);
const CATALOGUE = { params: { header: { 'X-Channel': 'WEB_DE' }, query: { limit: PAGE } } } as const;

/** A fetch that records the path and query of each request it sends on. */
function countingFetch() {
  const sent: string[] = [];
  return {
    sent,
    fetch: (request: Request, init?: RequestInit) => {
      const url = new URL(request.url);
      sent.push(`${request.method} ${url.pathname}${url.search}`);
      return fetch(request, init);
    },
  };
}

/** Asserts that `skus` is the whole seeded catalogue, each product once, in SKU order. */
function assertWholeCatalogue(skus: string[]) {
  assert.equal(new Set(skus).size, skus.length, 'no product twice');
  assert.equal(skus.length, PRODUCTS);
  assert.deepEqual(skus, SEEDED, 'none missing, in SKU order');
}

describe('auto-pagination of the clients against 10,000 seeded products', function () {
  this.timeout(180_000);
  let system: System;
  let secret: string;

  before(async () => {
    system = await startSystem({ liveProducts: PRODUCTS });
    // Room for every walk of this file within one minute, so no page meets the rate limit.
    const key = await system.createKey({
      name: 'paging',
      env: 'live',
      scopes: ['article:r'],
      extra: ['--rate-limit', '1000'],
    });
    secret = key.secret;
  });

  after(async () => {
    await system?.stop();
  });

  describe('TypeScript: client.paginate', () => {
    const clientWith = (fetch: ReturnType<typeof countingFetch>['fetch']): KeygateClient =>
      createKeygateClient({ baseUrl: system.gateway.url, apiKey: secret, fetch });

    it('walks every product in pages of 100, none twice and none missing', async () => {
      const counter = countingFetch();
      const skus: string[] = [];
      for await (const product of clientWith(counter.fetch).paginate('/v2/catalog/products', CATALOGUE)) {
        skus.push(product.sku);
      }
      assertWholeCatalogue(skus);
      assert.equal(counter.sent.length, PRODUCTS / PAGE, 'one request per page, none after the last');
      assert.equal(counter.sent[0], `GET /v2/catalog/products?limit=${PAGE}`);
    });

    it('fetches no further page once the caller breaks out', async () => {
      const counter = countingFetch();
      const skus: string[] = [];
      for await (const product of clientWith(counter.fetch).paginate('/v2/catalog/products', CATALOGUE)) {
        skus.push(product.sku);
        if (skus.length === 150) break;
      }
      assert.deepEqual(skus, SEEDED.slice(0, 150));
      assert.equal(counter.sent.length, 2, 'the second page held the 150th product; no third page');
    });
  });

  describe('PHP: listProductsAutoPaging', () => {
    const runPhp = async (...args: string[]) => {
      const { code, output } = await runCommand('php', ['tests/fixtures/php/auto-paging.php', ...args], {
        cwd: ROOT,
        env: {
          KEYGATE_PHP_BOOTSTRAP: resolve(ROOT, 'packages/client-php/tests/bootstrap.php'),
          KEYGATE_API_KEY: secret,
          KEYGATE_BASE_URL: system.gateway.url,
        },
      });
      assert.equal(code, 0, output);
      return JSON.parse(output) as { skus: string[]; sent: string[] };
    };

    it('walks every product in pages of 100, none twice and none missing', async () => {
      const { skus, sent } = await runPhp(String(PAGE));
      assertWholeCatalogue(skus);
      assert.equal(sent.length, PRODUCTS / PAGE, 'one request per page, none after the last');
    });

    it('fetches no further page once the loop breaks', async () => {
      const { skus, sent } = await runPhp(String(PAGE), '150');
      assert.deepEqual(skus, SEEDED.slice(0, 150));
      assert.equal(sent.length, 2);
    });
  });
});
