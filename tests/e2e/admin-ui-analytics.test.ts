import assert from 'node:assert/strict';
import { join } from 'node:path';
import { settle, text, useAdminUi } from '../support/admin-ui.ts';
import { saveScreenshot } from '../support/browser.ts';
import { ROOT } from '../support/processes.ts';

const CATALOG = '/v2/catalog/products?limit=1';
/** A path whose route needs `order:r`, which the key lacks: FORBIDDEN_SCOPE. */
const CART = '/v2/carts/cart_none';
/** Where `pnpm --filter @keygate/tests screenshot:analytics` writes the chart for the docs. */
const DOCS_SCREENSHOT = join(ROOT, 'docs/admin-analytics.png');

describe('the admin interface in headless Debian chromium: a key’s calls by outcome', function () {
  this.timeout(180_000);
  let key = { id: '', secret: '' };
  const ui = useAdminUi({
    async seed(system) {
      await system.createKey({ name: 'ops', env: 'live', scopes: ['auth:rw'] });
      key = await system.createKey({
        name: 'shop-frontend',
        env: 'live',
        scopes: ['article:r'],
        extra: ['--rate-limit', '3'],
      });
    },
  });

  it('draws the key’s real counts per outcome with uPlot, over the range picked', async () => {
    const statuses: number[] = [];
    const call = async (path: string) =>
      statuses.push((await ui.system.call(key.secret, path, { headers: { 'X-Channel': 'WEB_DE' } })).status);
    for (let i = 0; i < 5; i++) await call(CATALOG);
    for (let i = 0; i < 2; i++) await call(CART);
    const valid = statuses.filter((s) => s === 200).length;
    const limited = statuses.filter((s) => s === 429).length;
    assert.equal(valid + limited, 5, `admitted or limited: ${statuses.join(',')}`);
    assert.deepEqual(statuses.slice(5), [403, 403]);
    const expected = `VALID ${valid}, RATE_LIMITED ${limited}, FORBIDDEN_SCOPE 2`;

    const page = await ui.loggedInPage();
    await page.goto(`${ui.system.gateway.url}/admin/keys/${key.id}`);
    await page.getByRole('heading', { level: 2, name: 'Calls by outcome' }).waitFor();
    const totals = page.locator('.analytics-totals');
    // The gateway writes its counts about once a second: refresh until they are there.
    await settle('the outcome totals', async () => {
      await page.getByRole('button', { name: 'Refresh outcomes' }).click();
      assert.equal(await text(totals), expected);
    });
    const chart = page.locator('.outcome-chart');
    assert.equal(await chart.locator('.uplot canvas').count(), 1, 'uPlot drew one canvas');
    const legend = await chart.locator('.u-legend .u-series .u-label').allTextContents();
    assert.deepEqual(legend, ['UTC', 'VALID', 'RATE_LIMITED', 'FORBIDDEN_SCOPE']);
    await page.getByText(/Data of “Calls by outcome” \(1 bucket with calls\)/).click();
    const row = await page.locator('.analytics table tbody tr td.num').allTextContents();
    assert.deepEqual(row, [`${valid}`, `${limited}`, '2']);

    await page.locator('#analytics-range').selectOption({ label: 'Last hour, by minute' });
    await settle('the minute series', async () => assert.equal(await text(totals), expected));
    assert.equal(await chart.locator('.uplot canvas').count(), 1, 'the chart was drawn again, not added');

    const section = page.locator('section[aria-labelledby="outcomes-heading"]');
    const artifact = await saveScreenshot(page, 'key-analytics');
    if (process.env.UPDATE_ANALYTICS_SCREENSHOT === '1') {
      await section.screenshot({ path: DOCS_SCREENSHOT, animations: 'disabled' });
    }
    assert.ok(artifact);
    ui.assertCleanPages();
  });
});
