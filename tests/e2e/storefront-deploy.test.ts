import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { findAccessibilityViolations } from '../support/axe.ts';
import { launchChromium } from '../support/browser.ts';
import { runLighthouse } from '../support/lighthouse.ts';
import { startMediaApi } from '../support/media-api.ts';
import type { Service } from '../support/processes.ts';
import { assertStorefrontBuilt, STOREFRONT_SCOPES, startStorefront } from '../support/storefront.ts';
import {
  allSkus,
  FIXED_HEADERS,
  jsonLdOf,
  nonceOf,
  parseCsp,
  renameProduct,
  xmlLocs,
} from '../support/storefront-pages.ts';
import { type System, startSystem } from '../support/system.ts';

type Key = { id: string; prefix: string; secret: string };

/** A product whose name tries every way markup could run: element, handler, ending the JSON-LD. */
const HOSTILE_SKU = 'KG-00031';
const HOSTILE_NAME =
  'Lamp </script><script>window.__injected = 1</script><img src=x onerror="window.__injected = 2">';

const money = (minor: number, currency: string) =>
  new Intl.NumberFormat('en', { style: 'currency', currency }).format(minor / 100);

describe('the storefront made ready to deploy (next start, headless Debian chromium)', function () {
  this.timeout(240_000);
  let system: System;
  let shop: Service;
  let media: Awaited<ReturnType<typeof startMediaApi>> | null = null;
  let browser: Browser;
  let shopKey: Key;
  let context: BrowserContext;

  before(async () => {
    assertStorefrontBuilt();
    system = await startSystem();
    // Before anything reads the catalogue, so no cache anywhere holds the old name.
    renameProduct(system, HOSTILE_SKU, HOSTILE_NAME);
    shopKey = await system.createKey({ name: 'storefront', env: 'test', scopes: STOREFRONT_SCOPES });
    // Commerce's own product media when it sends them; until then the media API in front of it.
    const probe = await system.call(shopKey.secret, '/v2/catalog/products/KG-00002', {
      headers: { 'X-Channel': 'WEB_DE' },
    });
    const hasMedia = 'images' in ((await probe.json()) as { data: object }).data;
    media = hasMedia ? null : await startMediaApi(system.gateway.url);
    shop = await startStorefront({
      system,
      env: { KEYGATE_API_KEY: shopKey.secret, ...(media ? { KEYGATE_BASE_URL: media.url } : {}) },
    });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await shop?.stop();
    media?.close();
    await system?.stop();
  });
  beforeEach(async () => {
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
  });
  afterEach(async function () {
    await context.close();
    if (this.currentTest?.state === 'failed') console.error(shop.output().slice(-4000));
  });

  /** Opens a page and waits until Next has streamed it completely. */
  async function open(page: Page, path: string): Promise<void> {
    const response = await page.goto(`${shop.url}${path}`);
    assert.ok(response && response.status() < 400, `${path} answered ${response?.status()}`);
    await page.waitForLoadState('networkidle');
    await page.waitForFunction(() => document.title !== '' && !document.querySelector('.loading'));
  }
  /** Records the CSP violations the page reports from now on. */
  async function watchViolations(page: Page): Promise<string[]> {
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    return violations;
  }

  describe('security headers', () => {
    const PAGES = [
      '/WEB_DE',
      '/WEB_DE/products',
      '/WEB_DE/products?q=lamp',
      '/WEB_DE/products/KG-00002',
      '/WEB_DE/cart',
      '/WEB_DE/orders/ord_unknown',
      '/NO_SUCH_CHANNEL',
    ];

    it('sends a nonce-based CSP and the fixed headers on every page, and no HSTS over http', async () => {
      const nonces = new Set<string>();
      for (const path of PAGES) {
        const res = await fetch(`${shop.url}${path}`);
        const html = await res.text();
        for (const [name, value] of Object.entries(FIXED_HEADERS))
          assert.equal(res.headers.get(name), value, `${name} on ${path}`);
        const csp = parseCsp(res.headers.get('content-security-policy'));
        const nonce = nonceOf(csp);
        assert.ok(nonce && nonce.length >= 22, `a nonce on ${path}`);
        nonces.add(nonce);
        assert.deepEqual(csp.get('frame-ancestors'), ["'none'"], path);
        assert.deepEqual(csp.get('object-src'), ["'none'"], path);
        assert.ok(!csp.get('script-src')?.includes("'unsafe-inline'"), `no unsafe-inline on ${path}`);
        assert.ok(!csp.get('style-src')?.includes("'unsafe-inline'"), `no inline styles on ${path}`);
        assert.ok(!csp.has('upgrade-insecure-requests'), path);
        assert.equal(res.headers.get('strict-transport-security'), null, path);
        const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
        assert.ok(scripts.length > 0, `scripts on ${path}`);
        for (const tag of scripts) assert.ok(tag.includes(`nonce="${nonce}"`), `${tag} on ${path}`);
      }
      assert.equal(nonces.size, PAGES.length, 'a fresh nonce for every response');
      for (const path of ['/sitemap.xml', '/robots.txt', '/icon.svg', '/healthz']) {
        const res = await fetch(`${shop.url}${path}`);
        assert.equal(res.status, 200, path);
        for (const [name, value] of Object.entries(FIXED_HEADERS))
          assert.equal(res.headers.get(name), value, `${name} on ${path}`);
      }
    });

    it('adds HSTS, upgrade-insecure-requests and https URLs behind a TLS proxy', async () => {
      const res = await fetch(`${shop.url}/WEB_DE/products/KG-00002`, {
        headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'shop.example.com' },
      });
      assert.equal(res.headers.get('strict-transport-security'), 'max-age=63072000');
      assert.ok(parseCsp(res.headers.get('content-security-policy')).has('upgrade-insecure-requests'));
      assert.match(
        await res.text(),
        /<link rel="canonical" href="https:\/\/shop\.example\.com\/WEB_DE\/products\/KG-00002"\/>/,
      );
    });

    it('cannot be framed by another site', async () => {
      const page = await context.newPage();
      const blocked = await watchViolations(page);
      await page.setContent(`<iframe title="shop" src="${shop.url}/WEB_DE"></iframe>`);
      await page.waitForLoadState('networkidle');
      const frame = page.frames().find((f) => f !== page.mainFrame());
      assert.match(String(frame?.url()), /^chrome-error:/, 'the browser showed its error page instead');
      assert.doesNotMatch(String(await frame?.locator('body').textContent()), /keygate shop/);
      assert.ok(
        blocked.some((line) => /frame-ancestors/.test(line)),
        blocked.join('\n'),
      );
    });
  });

  describe('injected markup', () => {
    it('shows a product name holding markup as text and runs none of it', async () => {
      const page = await context.newPage();
      const violations = await watchViolations(page);
      await open(page, `/WEB_DE/products/${HOSTILE_SKU}`);
      assert.equal(await page.locator('h1').textContent(), HOSTILE_NAME);
      assert.equal(await page.evaluate(() => (window as { __injected?: number }).__injected), undefined);
      const [product] = await jsonLdOf(page);
      assert.equal(product?.name, HOSTILE_NAME, 'the JSON-LD holds the name intact');
      assert.equal(await page.locator('script[type="application/ld+json"]').count(), 1);
      assert.match(
        String(await page.locator('script[type="application/ld+json"]').innerHTML()),
        /\\u003c\/script\\u003e/,
      );
      assert.deepEqual(violations, []);
    });

    it('refuses inline code that got into the page without the nonce (CSP)', async () => {
      const page = await context.newPage();
      // Whatever slips past escaping one day: the real answer, with its real headers, carrying markup.
      await page.route(`${shop.url}/WEB_DE/products/KG-00002`, async (route) => {
        const response = await route.fetch();
        const html = (await response.text()).replace(
          '</h1>',
          '</h1><script>window.__injected = "script"</script>' +
            '<img alt="" src="data:," onload="window.__injected = \'handler\'">',
        );
        await route.fulfill({ response, body: html });
      });
      await page.addInitScript(() => {
        const refused: string[] = [];
        (window as { __refused?: string[] }).__refused = refused;
        document.addEventListener('securitypolicyviolation', (e) => refused.push(e.effectiveDirective));
      });
      await open(page, '/WEB_DE/products/KG-00002');
      await page.waitForFunction(() => ((window as { __refused?: string[] }).__refused ?? []).length >= 2);
      const outcome = await page.evaluate(() => ({
        injected: (window as { __injected?: string }).__injected ?? null,
        refused: (window as { __refused?: string[] }).__refused ?? [],
        // Next's own inline scripts carry the nonce: they ran and queued the page's RSC payload.
        hydrated: Array.isArray((window as { __next_f?: unknown[] }).__next_f),
      }));
      assert.equal(outcome.injected, null, 'no injected code ran');
      assert.deepEqual([...outcome.refused].sort(), ['script-src-attr', 'script-src-elem']);
      assert.equal(outcome.hydrated, true);
    });
  });

  describe('product images', () => {
    type ApiImage = { url: string; alt: string; width: number; height: number };
    /** The first page of WEB_DE's listing as the shop gets it (through the media API, if any). */
    async function apiListing(): Promise<Array<{ sku: string; images: ApiImage[] }>> {
      const res = await fetch(`${media?.url ?? system.gateway.url}/v2/catalog/products?limit=12`, {
        headers: { Authorization: `Bearer ${shopKey.secret}`, 'X-Channel': 'WEB_DE' },
      });
      assert.equal(res.status, 200);
      return ((await res.json()) as { data: Array<{ sku: string; images: ApiImage[] }> }).data;
    }

    it('shows each product with its image, size and alt text, lazily below the fold', async () => {
      const listing = await apiListing();
      const page = await context.newPage();
      const violations = await watchViolations(page);
      await open(page, '/WEB_DE/products');
      const cards = page.locator('li[data-sku]');
      assert.equal(await cards.count(), listing.length);
      for (const [i, product] of listing.entries()) {
        const expected = product.images[0];
        assert.ok(expected, `the API gives ${product.sku} an image`);
        const img = page.locator(`li[data-sku="${product.sku}"] img`);
        assert.equal(await img.getAttribute('alt'), expected.alt.trim(), product.sku);
        assert.ok(expected.alt.trim() !== '', 'the shop shows images that carry information');
        assert.equal(await img.getAttribute('width'), String(expected.width));
        assert.equal(await img.getAttribute('height'), String(expected.height));
        assert.match(String(await img.getAttribute('src')), /^\/images\/(v2\/)?media\//);
        assert.equal(await img.getAttribute('loading'), i === 0 ? 'eager' : 'lazy', `card ${i}`);
      }
      await cards.last().scrollIntoViewIfNeeded();
      await page.waitForFunction(() =>
        Array.from(document.querySelectorAll<HTMLImageElement>('li[data-sku] img')).every(
          (img) => img.complete && img.naturalWidth > 0,
        ),
      );

      const first = listing[0] as { sku: string; images: ApiImage[] };
      await open(page, `/WEB_DE/products/${first.sku}`);
      const hero = page.locator('.gallery img').first();
      assert.equal(await hero.getAttribute('alt'), first.images[0]?.alt.trim());
      assert.equal(await hero.getAttribute('loading'), 'eager');
      assert.equal(await hero.getAttribute('fetchpriority'), 'high');
      await page.waitForFunction(() => {
        const img = document.querySelector<HTMLImageElement>('.gallery img');
        return img?.complete && img.naturalWidth > 0;
      });
      assert.deepEqual(violations, [], 'img-src allows every image the shop shows');
    });

    it('relays only media files, with their caching headers and a sandboxing CSP', async () => {
      const page = await context.newPage();
      await open(page, '/WEB_DE/products');
      const src = String(await page.locator('li[data-sku] img').first().getAttribute('src'));
      const res = await fetch(`${shop.url}${src}`);
      assert.equal(res.status, 200);
      assert.match(String(res.headers.get('content-type')), /^image\/svg\+xml/);
      assert.match(String(res.headers.get('cache-control')), /max-age=\d+/);
      assert.match(String(res.headers.get('content-security-policy')), /sandbox/);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      const etag = res.headers.get('etag');
      assert.ok(etag);
      assert.equal((await fetch(`${shop.url}${src}`, { headers: { 'If-None-Match': etag } })).status, 304);
      for (const path of ['/images/v2/auth/keys', '/images/media/%2e%2e/v2/auth/keys', '/images/v2/channels'])
        assert.equal((await fetch(`${shop.url}${path}`)).status, 404, path);
    });
  });

  describe('search engines', () => {
    it('lists every product of every channel in the sitemap, which parses as XML', async () => {
      const page = await context.newPage();
      const index = await fetch(`${shop.url}/sitemap.xml`);
      assert.equal(index.status, 200);
      assert.match(String(index.headers.get('content-type')), /^application\/xml/);
      const files = await xmlLocs(page, await index.text(), 'sitemapindex');
      const listed = new Set<string>();
      for (const file of files) {
        const res = await fetch(file);
        assert.equal(res.status, 200, file);
        for (const loc of await xmlLocs(page, await res.text(), 'urlset')) listed.add(loc);
      }
      const channels = ['B2B_DE', 'WEB_CH', 'WEB_DE'];
      const expected = new Set<string>();
      for (const channel of channels) {
        expected.add(`${shop.url}/${channel}`);
        expected.add(`${shop.url}/${channel}/products`);
        for (const sku of await allSkus(system, shopKey.secret, channel))
          expected.add(`${shop.url}/${channel}/products/${sku}`);
      }
      assert.ok(expected.size > 100);
      assert.deepEqual([...listed].sort(), [...expected].sort());

      const robots = await (await fetch(`${shop.url}/robots.txt`)).text();
      assert.match(robots, new RegExp(`^Sitemap: ${shop.url}/sitemap.xml$`, 'm'));
      assert.match(robots, /^Disallow: \/\*\/cart$/m);
    });

    it('describes a product in JSON-LD with the price and stock the page shows', async () => {
      const page = await context.newPage();
      for (const [channel, sku] of [
        ['WEB_DE', 'KG-00002'],
        ['WEB_DE', 'KG-00006'],
        ['B2B_DE', 'KG-00002'],
        ['WEB_CH', 'KG-00010'],
      ] as const) {
        const res = await system.call(shopKey.secret, `/v2/catalog/products/${sku}`, {
          headers: { 'X-Channel': channel },
        });
        const api = (await res.json()) as {
          pricesIncludeVat: boolean;
          data: {
            name: string;
            price: { net: number; gross: number; currency: string };
            stock: { available: number };
          };
        };
        await open(page, `/${channel}/products/${sku}`);
        const [ld] = await jsonLdOf(page);
        const offer = ld?.offers as Record<string, unknown>;
        const url = `${shop.url}/${channel}/products/${sku}`;
        assert.equal(ld?.['@type'], 'Product');
        assert.equal(ld?.sku, sku);
        assert.equal(ld?.name, api.data.name);
        assert.equal(ld?.url, url);
        assert.equal(offer['@type'], 'Offer');
        const shown = await page.getByTestId('price-amount').textContent();
        const currency = String(offer.priceCurrency);
        assert.equal(currency, api.data.price.currency);
        assert.equal(money(Math.round(Number(offer.price) * 100), currency), shown, `${channel} ${sku}`);
        const amount = api.pricesIncludeVat ? api.data.price.gross : api.data.price.net;
        assert.equal(money(amount, currency), shown);
        const inStock = api.data.stock.available > 0;
        assert.equal(offer.availability, `https://schema.org/${inStock ? 'InStock' : 'OutOfStock'}`);
        assert.equal(/Out of stock/.test(String(await page.getByTestId('stock').textContent())), !inStock);
        assert.equal(await page.locator('link[rel="canonical"]').getAttribute('href'), url);
        assert.equal(await page.locator('meta[property="og:url"]').getAttribute('content'), url);
        assert.equal(await page.locator('meta[property="og:title"]').getAttribute('content'), api.data.name);
        assert.equal(
          await page.locator('meta[property="og:site_name"]').getAttribute('content'),
          'keygate shop',
        );
        assert.match(
          String(await page.locator('meta[property="og:image"]').getAttribute('content')),
          /^http:.*\.svg$/,
        );
      }
    });
  });

  describe('accessibility and Lighthouse', () => {
    it('has no axe-core violation on the home, list, product, cart and order pages', async () => {
      const page = await context.newPage();
      const check = async (what: string) =>
        assert.deepEqual(await findAccessibilityViolations(page), [], `axe on the ${what} page`);
      await open(page, '/WEB_DE');
      await check('home');
      await open(page, '/WEB_DE/products');
      await check('list');
      await open(page, '/WEB_DE/products/KG-00002');
      await check('product');
      await page.getByLabel('Quantity').fill('2');
      await page.getByRole('button', { name: 'Add to cart' }).click();
      await page.waitForURL(/\/WEB_DE\/cart$/);
      await page.locator('tbody tr').first().waitFor();
      await check('cart');
      await page.getByRole('button', { name: 'Place order' }).click();
      await page.waitForURL(/\/WEB_DE\/orders\/ord_/);
      await page.getByRole('heading', { name: 'Thank you for your order' }).waitFor();
      await check('order');
    });

    for (const [what, path] of [
      ['a product page', '/WEB_DE/products/KG-00002'],
      ['the channel page', '/WEB_DE'],
    ] as const) {
      it(`scores 100 for accessibility, best practices and SEO in Lighthouse on ${what}`, async () => {
        const { scores, failures } = await runLighthouse(`${shop.url}${path}`);
        const judged = {
          accessibility: scores.accessibility,
          'best-practices': scores['best-practices'],
          seo: scores.seo,
        };
        assert.deepEqual(judged, { accessibility: 1, 'best-practices': 1, seo: 1 }, failures.join('\n'));
      });
    }
  });
});
