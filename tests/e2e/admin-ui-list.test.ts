import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { isoDay, settle, text, useAdminUi } from '../support/admin-ui.ts';
import { findAccessibilityViolations } from '../support/axe.ts';
import { saveScreenshot } from '../support/browser.ts';

const CATALOG = '/v2/catalog/products?limit=1';

/** The names of the listed keys, in list order. */
const listedNames = (page: Page) => page.locator('tr.key-row th').allTextContents();

/** The cells of a key's row: Env, Prefix, Scopes, IP allowlist, Expiry, Rate limit, Last call, Status. */
async function cellsOf(page: Page, name: string) {
  const row = page.locator('tr.key-row', { has: page.getByRole('rowheader', { name, exact: true }) });
  const cell = (index: number): Locator => row.locator('td').nth(index);
  return {
    environment: await text(cell(0)),
    ipAllowlist: await text(cell(3)),
    expiry: cell(4),
    rateLimit: await text(cell(5)),
    lastCall: await text(cell(6)),
    status: await text(cell(7)),
  };
}

describe('the admin interface in headless Debian chromium: the keys list', function () {
  this.timeout(180_000);
  let mobileSecret = '';
  const ui = useAdminUi({
    async seed(system) {
      await system.createKey({ name: 'ops', env: 'live', scopes: ['auth:rw'] });
      mobileSecret = (await system.createKey({ name: 'mobile-app', env: 'test', scopes: ['article:r'] }))
        .secret;
      await system.createKey({
        name: 'agency-acme',
        env: 'live',
        scopes: ['article:r', 'pricing:r'],
        extra: ['--expires', isoDay(3), '--ip', '203.0.113.0/24', '--rate-limit', '120'],
      });
      const retired = await system.createKey({ name: 'retired', env: 'live', scopes: ['article:r'] });
      const revoked = await system.keygate('keys', 'revoke', retired.id);
      assert.equal(revoked.code, 0, revoked.stderr);
    },
  });

  it('shows every key with its IP allowlist, expiry reminder, rate limit, last call and status', async () => {
    const called = await ui.system.call(mobileSecret, CATALOG, { headers: { 'X-Channel': 'WEB_DE' } });
    assert.equal(called.status, 200);
    const page = await ui.loggedInPage();
    await settle('the last call of mobile-app is listed', async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      assert.equal((await cellsOf(page, 'mobile-app')).lastCall, 'just now');
    });
    const agency = await cellsOf(page, 'agency-acme');
    assert.equal(agency.ipAllowlist, '203.0.113.0/24');
    assert.equal(agency.rateLimit, '120/min');
    assert.equal(agency.lastCall, 'never');
    assert.equal(agency.status, 'active');
    assert.equal(await text(agency.expiry.locator('time')), isoDay(3));
    // Valid through the end of its last day (today + 3): whole days left, rounded up, are 4.
    assert.equal(await text(agency.expiry.locator('.badge-reminder')), 'expires in 4 days');
    const ops = await cellsOf(page, 'ops');
    assert.deepEqual(
      { ip: ops.ipAllowlist, expiry: await text(ops.expiry), rateLimit: ops.rateLimit },
      { ip: 'any address', expiry: 'no expiry', rateLimit: '600/min' },
    );
    assert.equal(await ops.expiry.locator('.badge').count(), 0, 'no reminder without an expiry');
    assert.equal((await cellsOf(page, 'retired')).status, 'revoked');
    await saveScreenshot(page, 'keys-list');
    ui.assertCleanPages();
  });

  it('filters by environment and by status', async () => {
    const page = await ui.loggedInPage();
    await settle('every key is listed', async () => {
      assert.deepEqual((await listedNames(page)).sort(), ['agency-acme', 'mobile-app', 'ops', 'retired']);
    });
    await page.getByLabel('Environment').selectOption('test');
    await settle('only test keys are listed', async () => {
      assert.deepEqual(await listedNames(page), ['mobile-app']);
    });
    await page.getByLabel('Environment').selectOption('live');
    await settle('only live keys are listed', async () => {
      assert.deepEqual((await listedNames(page)).sort(), ['agency-acme', 'ops', 'retired']);
    });
    await page.getByLabel('Environment').selectOption('');
    await page.getByLabel('Status').selectOption('revoked');
    await settle('only revoked keys are listed', async () => {
      assert.deepEqual(await listedNames(page), ['retired']);
    });
    await page.getByLabel('Status').selectOption('active');
    await settle('only active keys are listed', async () => {
      assert.deepEqual((await listedNames(page)).sort(), ['agency-acme', 'mobile-app', 'ops']);
    });
    ui.assertCleanPages();
  });

  it('has no WCAG 2.1 A/AA violations (axe-core) on the main pages', async () => {
    const findings: string[] = [];
    const check = async (page: Page, name: string) => {
      for (const violation of await findAccessibilityViolations(page)) findings.push(`${name}: ${violation}`);
    };
    const anonymous = await ui.newPage();
    await anonymous.goto(`${ui.system.gateway.url}/admin/`);
    await anonymous.getByRole('heading', { name: 'Log in' }).waitFor();
    await check(anonymous, 'login');
    const page = await ui.loggedInPage();
    await check(page, 'keys list');
    await page.getByRole('navigation').getByRole('link', { name: 'New key' }).click();
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('alert').waitFor();
    await check(page, 'create key with errors');
    await page.getByRole('navigation').getByRole('link', { name: 'Keys', exact: true }).click();
    await page.getByRole('link', { name: 'ops', exact: true }).click();
    await page.locator('#chart-calls-title').waitFor();
    await check(page, 'key page');
    await page.getByRole('button', { name: 'Revoke key…' }).click();
    await page.getByRole('dialog').waitFor();
    await check(page, 'revoke dialog');
    await page.keyboard.press('Escape');
    await page.getByRole('navigation').getByRole('link', { name: 'Activity log' }).click();
    await page.locator('.activity-table').waitFor();
    await check(page, 'activity log');
    assert.deepEqual(findings, []);
    ui.assertCleanPages();
  });
});
