import assert from 'node:assert/strict';
import { copyFileSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page, Response as PageResponse } from 'playwright-core';
import { findAccessibilityViolations } from '../support/axe.ts';
import { launchChromium } from '../support/browser.ts';
import { freePort, type Service, startService, tempDir } from '../support/processes.ts';
import {
  assertStorefrontBuilt,
  readClientBundle,
  registerWebhook,
  STOREFRONT_ARTIFACTS,
  STOREFRONT_DOC_SCREENSHOT,
  STOREFRONT_SCOPES,
  saveStorefrontScreenshot,
  startStorefront,
} from '../support/storefront.ts';
import { type System, startSystem } from '../support/system.ts';

type Key = { id: string; prefix: string; secret: string };
type CatalogProduct = { sku: string; name: string; price: { net: number; gross: number; source: string } };

const money = (minor: number, currency: string) =>
  new Intl.NumberFormat('en', { style: 'currency', currency }).format(minor / 100);

/** Polls `check` until it passes (webhook deliveries are asynchronous); rethrows its last failure. */
async function eventually(what: string, check: () => Promise<void>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`${what}: ${String(error)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

describe('the storefront starter (next start) in headless Debian chromium', function () {
  this.timeout(180_000);
  let system: System;
  let shop: Service;
  let browser: Browser;
  let shopKey: Key;
  let adminKey: Key;
  let webhook: { id: string; secret: string };
  let context: BrowserContext;
  /** Every response body the browser received, checked for the key after each test. */
  let received: Array<{ url: string; body: string }> = [];

  before(async () => {
    assertStorefrontBuilt();
    system = await startSystem({ commerceEnv: { KEYGATE_WEBHOOKS_ALLOW_PRIVATE: 'true' } });
    shopKey = await system.createKey({ name: 'storefront', env: 'test', scopes: STOREFRONT_SCOPES });
    adminKey = await system.createKey({
      name: 'ops',
      env: 'test',
      scopes: ['stock:rw', 'pricing:rw', 'webhook:rw', 'article:rw'],
    });
    const port = await freePort();
    webhook = await registerWebhook(system, adminKey.secret, `http://127.0.0.1:${port}/api/webhooks/keygate`);
    shop = await startStorefront({
      system,
      port,
      env: {
        KEYGATE_API_KEY: shopKey.secret,
        KEYGATE_WEBHOOK_SECRET: webhook.secret,
        STOREFRONT_BUYING_AS: 'true',
      },
    });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await shop?.stop();
    await system?.stop();
  });
  beforeEach(async () => {
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
    received = [];
    context.on('response', (response: PageResponse) => {
      void response
        .text()
        .then((body) => received.push({ url: response.url(), body }))
        .catch(() => {});
    });
  });
  afterEach(async function () {
    await context.close();
    if (this.currentTest?.state === 'failed') console.error(shop.output().slice(-4000));
  });

  /** Opens a path, checks it with axe-core and saves its screenshot. */
  async function visit(page: Page, path: string, screenshot?: string): Promise<void> {
    const response = await page.goto(`${shop.url}${path}`);
    assert.ok(response && response.status() < 400, `${path} answered ${response?.status()}`);
    await checkPage(page, screenshot);
  }
  async function checkPage(page: Page, screenshot?: string): Promise<void> {
    await page.waitForLoadState('networkidle');
    // Next streams the metadata of dynamic pages: wait until the title and the loading state are done.
    await page.waitForFunction(() => document.title !== '' && !document.querySelector('.loading'));
    assert.deepEqual(await findAccessibilityViolations(page), [], `axe on ${page.url()}`);
    if (screenshot) await saveStorefrontScreenshot(page, screenshot);
  }
  async function apiProduct(channel: string, sku: string, customer?: string): Promise<CatalogProduct> {
    const query = customer ? `?customer=${customer}` : '';
    const res = await system.call(shopKey.secret, `/v2/catalog/products/${sku}${query}`, {
      headers: { 'X-Channel': channel },
    });
    assert.equal(res.status, 200);
    return ((await res.json()) as { data: CatalogProduct }).data;
  }
  const cartRow = (page: Page, sku: string) => page.locator(`tr[data-sku="${sku}"]`);

  it('browses, searches, adds two items, changes a quantity, removes a line and checks out', async () => {
    const page = await context.newPage();
    await visit(page, '/', 'home');
    assert.equal(new URL(page.url()).pathname, '/WEB_DE');
    assert.match(
      String(await page.getByTestId('channel-currency').textContent()),
      /Prices in EUR, VAT included/,
    );

    await page.getByLabel('Search by name or SKU').fill('KG-00002');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/\/WEB_DE\/products\?q=KG-00002/);
    await checkPage(page, 'search');
    const results = page.getByRole('list', { name: 'Products' }).getByRole('listitem');
    assert.equal(await results.count(), 1);
    const breaks = await apiProduct('WEB_DE', 'KG-00002');
    await page.getByRole('link', { name: breaks.name }).click();
    await page.waitForURL(/\/WEB_DE\/products\/KG-00002$/);
    await checkPage(page, 'product');
    assert.equal(await page.getByTestId('price-amount').textContent(), money(breaks.price.gross, 'EUR'));
    assert.match(String(await page.locator('.price').first().textContent()), /incl\. 19% VAT/);
    const table = page.getByRole('table', { name: 'Quantity prices (per unit)' });
    assert.deepEqual(
      (await table.locator('tbody td:first-child').allTextContents()).map((t) => t.trim()),
      ['1 unit', '10 units', '50 units'],
    );
    await page.getByLabel('Quantity').fill('2');
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await page.waitForURL(/\/WEB_DE\/cart$/);

    const second = await apiProduct('WEB_DE', 'KG-00010');
    await visit(page, '/WEB_DE/products/KG-00010');
    await page.getByLabel('Quantity').fill('3');
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await page.waitForURL(/\/WEB_DE\/cart$/);
    await checkPage(page, 'cart');
    assert.equal(await page.locator('tbody tr').count(), 2);
    assert.equal(
      await cartRow(page, 'KG-00010').getByTestId('line-total').textContent(),
      money(second.price.gross * 3, 'EUR'),
    );

    // 10 units reach the first quantity break: the line is repriced.
    await cartRow(page, 'KG-00002').getByLabel(`Quantity of ${breaks.name}`).fill('10');
    await cartRow(page, 'KG-00002').getByRole('button', { name: 'Update' }).click();
    await eventually('the line shows 10 units', async () => {
      assert.equal(
        await cartRow(page, 'KG-00002').getByLabel(`Quantity of ${breaks.name}`).inputValue(),
        '10',
      );
      const total = await cartRow(page, 'KG-00002').getByTestId('line-total').textContent();
      assert.ok(total && total !== money(breaks.price.gross * 10, 'EUR'), `repriced at the break: ${total}`);
    });

    await cartRow(page, 'KG-00010')
      .getByRole('button', { name: `Remove ${second.name}` })
      .click();
    await eventually('the removed line is gone', async () => {
      assert.equal(await page.locator('tbody tr').count(), 1);
    });
    const cartId = (await context.cookies()).find((c) => c.name === 'kg_cart_WEB_DE');
    assert.equal(cartId?.httpOnly, true, 'the cart id lives in an httpOnly cookie');
    const api = await system.call(shopKey.secret, `/v2/carts/${cartId?.value}`);
    const cart = (await api.json()) as { totals: { net: number; vat: number; gross: number } };
    assert.equal(await page.getByTestId('total-gross').textContent(), money(cart.totals.gross, 'EUR'));
    assert.equal(await page.getByTestId('total-vat').textContent(), money(cart.totals.vat, 'EUR'));
    await checkPage(page, 'cart-updated');

    await page.getByRole('button', { name: 'Place order' }).click();
    await page.waitForURL(/\/WEB_DE\/orders\/ord_/);
    await page.getByRole('heading', { name: 'Thank you for your order' }).waitFor();
    await checkPage(page, 'order-confirmation');
    const orderId = String(await page.getByTestId('order-id').textContent());
    assert.equal(await page.getByTestId('order-total').textContent(), money(cart.totals.gross, 'EUR'));
    const order = await system.call(shopKey.secret, `/v2/orders/${orderId}`);
    assert.equal(order.status, 200);
    assert.equal(((await order.json()) as { status: string }).status, 'placed');

    // Another browser cannot read the order by its URL.
    const stranger = await browser.newContext();
    const other = await stranger.newPage();
    await other.goto(`${shop.url}/WEB_DE/orders/${orderId}`);
    await other.getByRole('heading', { level: 1, name: 'Not found' }).waitFor();
    assert.equal(await other.getByTestId('order-id').count(), 0);
    await checkPage(other);
    await stranger.close();
  });

  it('switches the channel and shows its currency and net or gross prices', async () => {
    const page = await context.newPage();
    await visit(page, '/WEB_DE');
    await page
      .getByRole('navigation', { name: 'Channels' })
      .getByRole('link', { name: /Switzerland/ })
      .click();
    await page.waitForURL(/\/WEB_CH$/);
    await page.getByRole('heading', { level: 1, name: 'Web shop Switzerland' }).waitFor();
    await checkPage(page, 'channel-web-ch');
    assert.match(
      String(await page.getByTestId('channel-currency').textContent()),
      /Prices in CHF, VAT included/,
    );
    const first = page.getByRole('list', { name: 'Products' }).getByRole('listitem').first();
    assert.match(String(await first.textContent()), /CHF/);
    assert.match(String(await first.textContent()), /incl\. 8\.1% VAT/);

    await page.getByRole('navigation', { name: 'Channels' }).getByRole('link', { name: /B2B/ }).click();
    await page.waitForURL(/\/B2B_DE$/);
    await page.getByRole('heading', { level: 1, name: 'B2B Germany (net prices)' }).waitFor();
    await checkPage(page, 'channel-b2b-de');
    assert.match(String(await page.getByTestId('channel-currency').textContent()), /EUR, shown net/);
    assert.match(String(await page.getByRole('list', { name: 'Products' }).textContent()), /excl\. 19% VAT/);
  });

  it('pages through the listing with the cursor and filters by stock', async () => {
    const page = await context.newPage();
    const skus = () =>
      page.locator('li[data-sku]').evaluateAll((items) => items.map((i) => i.getAttribute('data-sku')));
    await visit(page, '/WEB_DE/products', 'listing');
    const first = await skus();
    assert.equal(first.length, 12);
    await page.getByRole('link', { name: 'Next page' }).click();
    await page.waitForURL(/cursor=/);
    await page.getByRole('link', { name: 'First page' }).waitFor();
    await checkPage(page, 'listing-page-2');
    const second = await skus();
    assert.equal(second.length, 12);
    assert.ok(
      String(second[0]) > String(first.at(-1)),
      `page 2 continues after ${first.at(-1)}: ${second[0]}`,
    );

    await page.getByLabel('Search by name or SKU').fill('KG-0000');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/q=KG-0000/);
    await page.getByRole('heading', { level: 1, name: /KG-0000/ }).waitFor();
    assert.ok((await skus()).includes('KG-00006'), 'the sold-out product is listed without the filter');
    assert.match(String(await page.locator('li[data-sku="KG-00006"]').textContent()), /Out of stock/);
    await page.getByLabel('In stock only').check();
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/inStock=true/);
    await page.getByRole('heading', { level: 1, name: /KG-0000/ }).waitFor();
    await checkPage(page, 'listing-in-stock');
    const inStock = await skus();
    assert.ok(inStock.length > 0);
    assert.ok(!inStock.includes('KG-00006') && !inStock.includes('KG-00007'), inStock.join(' '));
  });

  it('runs for one customer with STOREFRONT_CUSTOMER, without the switcher', async () => {
    const agreed = await apiProduct('B2B_DE', 'KG-00002', 'cus_0005');
    const pinned = await startStorefront({
      system,
      env: { KEYGATE_API_KEY: shopKey.secret, STOREFRONT_CUSTOMER: 'cus_0005', STOREFRONT_BUYING_AS: 'true' },
    });
    try {
      const page = await context.newPage();
      await page.goto(`${pinned.url}/B2B_DE/products/KG-00002`);
      await checkPage(page);
      assert.equal(await page.getByTestId('price-amount').textContent(), money(agreed.price.net, 'EUR'));
      assert.equal(await page.getByTestId('price-source').textContent(), 'Your agreement price');
      assert.equal(await page.getByLabel('Buying as (development)').count(), 0);
    } finally {
      await pinned.stop();
    }
  });

  it('buys as a customer and shows their agreement price', async () => {
    const list = await apiProduct('B2B_DE', 'KG-00002');
    const agreed = await apiProduct('B2B_DE', 'KG-00002', 'cus_0005');
    assert.equal(agreed.price.source, 'agreement');
    assert.ok(agreed.price.net < list.price.net);
    const page = await context.newPage();
    await visit(page, '/B2B_DE/products/KG-00002');
    assert.equal(await page.getByTestId('price-amount').textContent(), money(list.price.net, 'EUR'));
    assert.equal(await page.getByTestId('price-source').textContent(), 'List price');

    await page.getByLabel('Buying as (development)').selectOption('cus_0005');
    await page.getByRole('button', { name: 'Show prices' }).click();
    await page.waitForURL(/\/B2B_DE$/);
    await visit(page, '/B2B_DE/products/KG-00002', 'product-agreement');
    assert.equal(await page.getByTestId('price-amount').textContent(), money(agreed.price.net, 'EUR'));
    assert.equal(await page.getByTestId('price-source').textContent(), 'Your agreement price');
    await page.getByLabel('Quantity').fill('1');
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await page.waitForURL(/\/B2B_DE\/cart$/);
    const line = cartRow(page, 'KG-00002');
    assert.match(
      String(await line.textContent()),
      new RegExp(money(agreed.price.net, 'EUR').replace('.', '\\.')),
    );
  });

  it('shows a stock change on the next load once the webhook arrives, and not before', async () => {
    const sku = 'KG-00012';
    const setStock = (onHand: number) =>
      system.call(adminKey.secret, `/v2/stock/${sku}`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ onHand }),
      });
    const enable = (enabled: boolean) =>
      system.call(adminKey.secret, `/v2/webhooks/endpoints/${webhook.id}`, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ enabled }),
      });
    assert.equal((await setStock(40)).status, 200);
    const page = await context.newPage();
    const stock = () => page.getByTestId('stock').textContent();
    await eventually('the product shows 40 in stock', async () => {
      await page.goto(`${shop.url}/WEB_DE/products/${sku}`);
      assert.equal(await stock(), 'In stock (40)');
    });

    // Without a delivery the cached product stays as it was: the cache is real.
    assert.equal((await enable(false)).status, 200);
    assert.equal((await setStock(7)).status, 200);
    await page.reload();
    assert.equal(await stock(), 'In stock (40)');

    // With the endpoint on, the stock.updated delivery expires the cache: the next load is fresh.
    assert.equal((await enable(true)).status, 200);
    assert.equal((await setStock(3)).status, 200);
    await eventually('the stock.updated delivery succeeded', async () => {
      const res = await system.call(adminKey.secret, `/v2/webhooks/endpoints/${webhook.id}/deliveries`);
      const body = (await res.json()) as { data: Array<{ eventType: string; status: string }> };
      assert.ok(
        body.data.some((d) => d.status === 'succeeded'),
        JSON.stringify(body.data.slice(0, 3)),
      );
    });
    // The held delivery of 7 may be the one that succeeded first: reload until the delivery of 3 has
    // expired the cache too (well within the cache's own five minutes, so only a webhook does it).
    await eventually('the next load after the delivery shows 3 left', async () => {
      await page.reload();
      assert.equal(await stock(), 'Only 3 left');
    });
    await checkPage(page, 'product-low-stock');
  });

  it('shows a price change on the next load once the pricing webhook arrives', async () => {
    const sku = 'KG-00014';
    const page = await context.newPage();
    const price = () => page.getByTestId('price-amount').first().textContent();
    await page.goto(`${shop.url}/WEB_DE/products/${sku}`);
    const before = await price();
    // A dated base price beats the undated seed price (commerce's rule 3): 987.65 EUR from now on.
    const res = await system.call(adminKey.secret, '/v2/prices', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        sku,
        channel: 'WEB_DE',
        level: 'base',
        amount: 98_765,
        validFrom: new Date(Date.now() - 60_000).toISOString(),
      }),
    });
    assert.equal(res.status, 201, await res.text());
    assert.notEqual(before, money(98_765, 'EUR'));
    // The pricing.price.created delivery expires the cache: well within the cache's five minutes.
    await eventually('the next load after the delivery shows the new price', async () => {
      await page.reload();
      assert.equal(await price(), money(98_765, 'EUR'));
    });
  });

  it("shows a product's new images on the next load once product.updated arrives, and not before", async () => {
    const sku = 'KG-00016';
    const res = await system.call(shopKey.secret, `/v2/catalog/products/${sku}`, {
      headers: { 'X-Channel': 'WEB_DE' },
    });
    assert.equal(res.status, 200);
    const [image] = ((await res.json()) as { data: { images: Array<Record<string, unknown>> } }).data.images;
    assert.ok(image, 'the product has its generated image');
    // Commerce sends product.updated for a change of a product's images: here, their alt text.
    const setAlt = async (alt: string) => {
      const put = await system.call(adminKey.secret, `/v2/catalog/products/${sku}/images`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ images: [{ ...image, alt }] }),
      });
      assert.equal(put.status, 200, await put.text());
    };
    const enable = (enabled: boolean) =>
      system.call(adminKey.secret, `/v2/webhooks/endpoints/${webhook.id}`, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ enabled }),
      });
    const page = await context.newPage();
    const alt = () => page.locator('.gallery img').first().getAttribute('alt');
    await page.goto(`${shop.url}/WEB_DE/products/${sku}`);
    const before = await alt();

    // Without a delivery the cached product keeps its images: the cache is real.
    assert.equal((await enable(false)).status, 200);
    await setAlt('Held back: the shop has not heard of it');
    await page.reload();
    assert.equal(await alt(), before);

    // With the endpoint on, the product.updated delivery expires the cache: the next load is fresh.
    assert.equal((await enable(true)).status, 200);
    await setAlt('The bolt from the side, in daylight');
    await eventually('the next load after the product.updated delivery shows the new images', async () => {
      await page.reload();
      assert.equal(await alt(), 'The bolt from the side, in daylight');
    });
    await checkPage(page);
  });

  it('refuses a webhook with a bad signature and changes nothing', async () => {
    const res = await fetch(`${shop.url}/api/webhooks/keygate`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'webhook-id': 'msg_forged',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')}`,
      },
      body: JSON.stringify({ type: 'stock.updated', data: {} }),
    });
    assert.equal(res.status, 401);
    assert.equal(res.headers.get('content-type'), 'application/problem+json');
    assert.equal(((await res.json()) as { code: string }).code, 'NO_MATCHING_SIGNATURE');
  });

  it('shows the API problem detail on a friendly page', async () => {
    const page = await context.newPage();
    await visit(page, '/WEB_DE/products/NOPE-1', 'problem');
    await assert.doesNotReject(page.getByRole('heading', { name: 'Not found' }).waitFor());
    assert.equal(await page.locator('.problem-detail').textContent(), 'There is no product NOPE-1.');
    const unknown = await page.goto(`${shop.url}/NO_SUCH_CHANNEL`);
    assert.equal(unknown?.status(), 404);
    await checkPage(page, 'not-found');
  });

  it('shows a busy page when the rate limit persists after one wait', async () => {
    const limited = await system.createKey({
      name: 'storefront-limited',
      env: 'test',
      scopes: STOREFRONT_SCOPES,
      extra: ['--rate-limit', '2'],
    });
    const busyShop = await startStorefront({ system, env: { KEYGATE_API_KEY: limited.secret } });
    try {
      const page = await context.newPage();
      let busy = false;
      // Unique searches are never cached, so each page load costs one API call of the two a minute.
      for (let i = 0; i < 6 && !busy; i++) {
        await page.goto(`${busyShop.url}/WEB_DE/products?q=busy-${i}-${Date.now()}`);
        // React reveals streamed content on a timer (up to 300 ms after the loading state painted),
        // which can be after the load event: until then the answer is in a hidden node.
        await page.waitForFunction(() => !document.querySelector('.loading'));
        busy = (await page.getByRole('heading', { name: 'The shop is busy' }).count()) === 1;
      }
      assert.ok(busy, 'the busy page appeared');
      await checkPage(page, 'busy');
      assert.match(
        String(await page.locator('.problem').textContent()),
        /Please wait a moment and try again/,
      );
    } finally {
      await busyShop.stop();
    }
  });

  it('shows a loading state while the catalogue API is slow, then the products', async () => {
    // A proxy in front of the gateway that holds every catalogue answer for two seconds.
    const slowApi = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      if (req.url?.startsWith('/v2/catalog/products')) await new Promise((done) => setTimeout(done, 2_000));
      const headers = Object.entries(req.headers).filter(
        ([name]) =>
          !['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive'].includes(name),
      ) as Array<[string, string]>;
      const answer = await fetch(new URL(req.url ?? '/', system.gateway.url), {
        method: req.method,
        headers,
        body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
      });
      const body = Buffer.from(await answer.arrayBuffer());
      const kept: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(name))
          kept[name] = value;
      });
      res.writeHead(answer.status, kept);
      res.end(body);
    });
    await new Promise<void>((done) => slowApi.listen(0, '127.0.0.1', done));
    const slowUrl = `http://127.0.0.1:${(slowApi.address() as AddressInfo).port}`;
    const slowShop = await startStorefront({
      system,
      env: { KEYGATE_API_KEY: shopKey.secret, KEYGATE_BASE_URL: slowUrl },
    });
    try {
      const page = await context.newPage();
      await page.goto(`${slowShop.url}/WEB_DE/products?q=KG-0001`, { waitUntil: 'commit' });
      const loading = page.getByRole('status').filter({ hasText: 'Loading' });
      await loading.waitFor({ timeout: 10_000 });
      await page.getByRole('list', { name: 'Products' }).waitFor({ timeout: 30_000 });
      await loading.waitFor({ state: 'detached', timeout: 10_000 });
    } finally {
      await slowShop.stop();
      slowApi.closeAllConnections();
      slowApi.close();
    }
  });

  it('stops at start with one config error line for a bad key, never echoing it', async () => {
    await assert.rejects(
      startStorefront({ system, env: { KEYGATE_API_KEY: 'sk_live_not-a-keygate-key' } }),
      (error: Error) => {
        assert.match(error.message, /exited early \(1\)/);
        assert.match(error.message, /config error: KEYGATE_API_KEY must be a keygate API key/);
        assert.doesNotMatch(error.message, /not-a-keygate-key/);
        return true;
      },
    );
  });

  it('is usable by keyboard: skip link, search, add to cart', async () => {
    const page = await context.newPage();
    await visit(page, '/WEB_DE');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => location.hash), '#main');
    await page.getByLabel('Search by name or SKU').focus();
    await page.keyboard.type('KG-00010');
    await page.keyboard.press('Enter');
    await page.waitForURL(/q=KG-00010/);
    const link = page.getByRole('list', { name: 'Products' }).getByRole('link').first();
    await link.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/products\/KG-00010$/);
    await page.getByLabel('Quantity').focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('2');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Add to cart');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/WEB_DE\/cart$/);
    // The cart page streams in behind its loading state: the line shows once it has rendered.
    await eventually('the cart shows the added line', async () => {
      assert.equal(await page.locator('tbody tr').count(), 1);
    });
  });

  it('fetches no linked page while a page loads, and prefetches a link once pointed at', async () => {
    const page = await context.newPage();
    // Next fetches a page's server components for the router with `?_rsc=`; a plain load never does.
    const isRouterFetch = (url: string) => new URL(url).searchParams.has('_rsc');
    const routerFetches: string[] = [];
    page.on('request', (request) => {
      if (isRouterFetch(request.url())) routerFetches.push(new URL(request.url()).pathname);
    });
    await visit(page, '/WEB_DE');
    assert.deepEqual(routerFetches, [], 'the channel page, once loaded, has fetched none of its links');
    const allProducts = page
      .getByRole('navigation', { name: 'Shop' })
      .getByRole('link', { name: 'All products' });
    const prefetch = page.waitForRequest(
      (request) => isRouterFetch(request.url()) && new URL(request.url()).pathname === '/WEB_DE/products',
    );
    await allProducts.hover();
    await prefetch;
    await allProducts.click();
    await page.waitForURL(/\/WEB_DE\/products$/);
    await page.getByRole('list', { name: 'Products' }).waitFor();
  });

  it('never lets the API key or its prefix reach the browser', async () => {
    const page = await context.newPage();
    for (const path of ['/WEB_DE', '/WEB_DE/products?q=lamp', '/WEB_DE/products/KG-00002', '/WEB_DE/cart']) {
      await visit(page, path);
    }
    await saveStorefrontScreenshot(page, 'cart-empty');
    assert.ok(received.length > 5, 'pages, scripts and styles were received');
    for (const { url, body } of received) {
      assert.ok(!body.includes(shopKey.secret), `${url} contains the key`);
      assert.ok(!body.includes(shopKey.prefix), `${url} contains the key prefix`);
    }
    const bundle = readClientBundle();
    assert.ok(bundle.some((file) => file.path.endsWith('.js')));
    for (const file of bundle) {
      assert.ok(!file.text.includes(shopKey.prefix), `${file.path} contains the key prefix`);
      assert.ok(!file.text.includes('KEYGATE_API_KEY'), `${file.path} names KEYGATE_API_KEY`);
    }
    assert.ok(!(await context.cookies()).some((c) => c.value.includes(shopKey.prefix)));
  });

  it('pnpm start:storefront creates a least-privilege test key, saves it privately and serves the shop', async () => {
    const dir = tempDir('keygate-storefront-');
    const envFile = join(dir.path, '.env.local');
    const port = await freePort();
    const env = { ...system.env, STOREFRONT_PORT: String(port), STOREFRONT_ENV_FILE: envFile };
    const keyIds = async () => {
      const listed = await system.keygate('keys', 'list', '--json');
      return JSON.parse(listed.stdout) as Array<{
        id: string;
        name: string;
        scopes: string[];
        environment: string;
        status: string;
      }>;
    };
    const before = await keyIds();
    let started: Service | undefined;
    try {
      started = await startService({
        name: 'start:storefront',
        script: 'scripts/start-storefront.ts',
        port,
        env,
        readyPath: '/healthz',
      });
      const saved = readFileSync(envFile, 'utf8');
      const secret = /^KEYGATE_API_KEY=(kg_test_\S+)$/m.exec(saved)?.[1];
      assert.ok(secret, saved.replace(/kg_\S+|whsec_\S+/g, '…'));
      assert.match(saved, /^KEYGATE_WEBHOOK_SECRET=whsec_/m);
      assert.equal(statSync(envFile).mode & 0o777, 0o600);
      assert.ok(!started.output().includes(secret), 'the secret is never printed');
      assert.match(
        started.output(),
        /created the test key kg_test_\w+ \(article:r, order:rw, stock:r, pricing:r\)/,
      );
      const created = (await keyIds()).filter((k) => !before.some((b) => b.id === k.id));
      const shopKeys = created.filter((k) => k.name === 'storefront');
      assert.equal(shopKeys.length, 1);
      assert.deepEqual([...(shopKeys[0]?.scopes ?? [])].sort(), [...STOREFRONT_SCOPES].sort());
      assert.equal(shopKeys[0]?.environment, 'test');
      // The webhook:rw key that registered the receiver is revoked again.
      assert.deepEqual(
        created.filter((k) => k.name !== 'storefront').map((k) => k.status),
        ['revoked'],
      );
      const home = await fetch(`${started.url}/WEB_DE`);
      assert.equal(home.status, 200);
      assert.match(await home.text(), /Web shop Germany/);
    } finally {
      await started?.stop();
    }
    // A second start reuses the saved key.
    const again = await startService({
      name: 'start:storefront',
      script: 'scripts/start-storefront.ts',
      port,
      env,
      readyPath: '/healthz',
    });
    await again.stop();
    assert.doesNotMatch(again.output(), /created the test key/);
    assert.equal((await keyIds()).length, before.length + 2);
    dir.remove();
  });

  after(() => {
    if (process.env.UPDATE_STOREFRONT_SCREENSHOT === '1') {
      // The home page in WEB_DE, as docs/storefront.md shows it.
      copyFileSync(join(STOREFRONT_ARTIFACTS, 'home.png'), STOREFRONT_DOC_SCREENSHOT);
    }
  });
});
