import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { eventually, isoDay, prefixOf, text, useAdminUi } from '../support/admin-ui.ts';
import { findAccessibilityViolations } from '../support/axe.ts';
import { saveScreenshot } from '../support/browser.ts';
import { json } from '../support/system.ts';

const CATALOG = '/v2/catalog/products?limit=1';

describe('the admin interface in headless Debian chromium: keys', function () {
  this.timeout(180_000);
  const ui = useAdminUi(async (system) => {
    await system.createKey({ name: 'ops', env: 'live', scopes: ['auth:rw'] });
    await system.createKey({ name: 'mobile-app', env: 'test', scopes: ['article:r', 'order:rw'] });
    await system.createKey({
      name: 'agency-acme',
      env: 'live',
      scopes: ['article:r', 'pricing:r'],
      extra: ['--expires', isoDay(3), '--ip', '203.0.113.0/24', '--rate-limit', '120'],
    });
  });
  const catalog = (secret: string) => ui.system.call(secret, CATALOG, { headers: { 'X-Channel': 'WEB_DE' } });

  it('creates, uses, rotates, closes and revokes a key through the pages', async () => {
    const page = await ui.loggedInPage();

    // 2. Create a key with every field and read its secret once.
    await page.getByRole('navigation').getByRole('link', { name: 'New key' }).click();
    await page.getByLabel('Name', { exact: true }).fill('shop-frontend');
    await page.getByLabel('live', { exact: true }).check();
    await page.getByLabel('article:r', { exact: true }).check();
    await page.getByLabel('order:rw', { exact: true }).check();
    await page.getByLabel(/^Expiry date/).fill(isoDay(5));
    await page.getByRole('textbox', { name: /^IP allowlist/ }).fill('127.0.0.1\n::1');
    await page.getByLabel(/^Rate limit/).fill('300');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secretBox = page.getByTestId('secret');
    await secretBox.waitFor();
    const secret = (await text(secretBox)).trim();
    assert.match(secret, /^kg_live_/);
    await page.getByRole('button', { name: 'Copy secret' }).click();
    await page.getByText('Copied to the clipboard.').waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret);
    await saveScreenshot(page, 'create-key-secret-shown', [secretBox]);

    // 3. The secret works against the API through the gateway.
    assert.equal((await catalog(secret)).status, 200);

    // 4. Rotate on the key page; the new secret is shown once too.
    await page.getByRole('link', { name: 'Go to the key page' }).click();
    await page.getByRole('heading', { level: 1, name: /shop-frontend/ }).waitFor();
    assert.equal(await page.getByTestId('secret').count(), 0, 'the create secret is gone');
    await page.getByLabel(/^Overlap/).fill('1');
    await page.getByRole('button', { name: 'Rotate key' }).click();
    await page.getByTestId('secret').waitFor();
    const rotated = (await text(page.getByTestId('secret'))).trim();
    assert.notEqual(rotated, secret);
    assert.equal(prefixOf(rotated) === prefixOf(secret), false);

    // 5. Both secrets work during the overlap and are counted separately.
    for (let i = 0; i < 3; i++) assert.equal((await catalog(secret)).status, 200);
    for (let i = 0; i < 2; i++) assert.equal((await catalog(rotated)).status, 200);
    const callsOf = (token: string) =>
      text(page.locator(`tr[data-secret-prefix="${prefixOf(token)}"] .secret-calls`));
    await eventually(async () => {
      await page.getByRole('button', { name: 'Reload', exact: true }).click();
      assert.equal(await callsOf(secret), '4');
      assert.equal(await callsOf(rotated), '2');
    });
    const hint = await text(page.locator('.rotation-summary'));
    assert.match(hint, /Old secret .* still in use/);

    await page.getByRole('navigation').getByRole('link', { name: 'Keys' }).click();
    const summary = page.locator('.rotation-row', { hasText: prefixOf(secret) });
    await summary.waitFor();
    assert.match(await text(summary), /New kg_live_\w+: 2 calls/);
    assert.match(await text(summary), /Old kg_live_\w+: 4 calls/);
    await saveScreenshot(page, 'keys-list-during-rotation');
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: /shop-frontend/ }).waitFor();
    assert.equal(await page.getByTestId('secret').count(), 0, 'the rotated secret is not shown again');

    // 6. Close the old secret: it was used a moment ago, so the page asks first.
    await page.getByRole('button', { name: `Close old secret ${prefixOf(secret)}` }).click();
    const closeDialog = page.getByRole('dialog', { name: 'Close a secret that is still in use?' });
    await closeDialog.waitFor();
    await closeDialog.getByRole('button', { name: 'Close old secret' }).click();
    await page.getByText(`Old secret ${prefixOf(secret)} closed`).waitFor();
    assert.equal((await catalog(secret)).status, 401, 'the closed secret is refused');
    assert.equal((await catalog(rotated)).status, 200, 'the new secret still works');

    // Edit scopes: add stock:r.
    await page.getByLabel('stock:r', { exact: true }).check();
    await page.getByRole('button', { name: 'Save scopes' }).click();
    await page.getByText('Scopes saved: article:r, order:rw, stock:r.').waitFor();
    assert.notEqual((await ui.system.call(rotated, '/v2/stock/ANY')).status, 403, 'stock:r is granted');

    // Usage charts, API log (paged) and activity of the key.
    for (let i = 0; i < 25; i++) assert.equal((await catalog(rotated)).status, 200);
    await page.getByLabel('Range').selectOption('1h');
    await eventually(async () => {
      await page.getByRole('button', { name: 'Refresh usage' }).click();
      assert.match(await text(page.locator('.usage-totals')), /^([7-9]|\d\d+) calls/);
    });
    for (const chart of ['chart-calls', 'chart-errors', 'chart-latency']) {
      const figure = page.locator(`figure[aria-labelledby="${chart}-title"]`);
      assert.equal(await figure.locator('svg[role="img"]').count(), 1, `${chart} is drawn as SVG`);
    }
    const callsPath = await page
      .locator('figure[aria-labelledby="chart-calls-title"] path.chart-line')
      .getAttribute('d');
    assert.match(callsPath ?? '', /^M\d/, 'the calls line has points');
    const logRows = page.locator('.log-table tbody tr');
    await eventually(async () => {
      await page.getByRole('button', { name: 'Refresh log' }).click();
      assert.equal(await logRows.count(), 25, 'the first page of the API log');
      await page.getByRole('button', { name: 'Load older calls' }).waitFor({ timeout: 1000 });
    });
    await page.getByRole('button', { name: 'Load older calls' }).click();
    await eventually(async () => assert.ok((await logRows.count()) > 25, 'the next page is appended'));
    assert.match(await text(page.locator('.log-table')), /GET \/v2\/catalog\/products/);
    const activity = await text(page.locator('.activity-table'));
    for (const action of ['key.created', 'key.rotated', 'key.secret_closed', 'key.scopes_changed'])
      assert.match(activity, new RegExp(action));
    await saveScreenshot(page, 'key-page-with-charts');

    // 7. Revoke behind a confirmation dialog: Escape cancels, the button confirms.
    await page.getByRole('button', { name: 'Revoke key…' }).click();
    const revokeDialog = page.getByRole('dialog', { name: 'Revoke key "shop-frontend"?' });
    await revokeDialog.waitFor();
    assert.equal(
      await page.evaluate(() => document.activeElement?.textContent),
      'Cancel',
      'focus starts on Cancel',
    );
    await page.keyboard.press('Escape');
    await revokeDialog.waitFor({ state: 'hidden' });
    assert.equal(
      await page.evaluate(() => document.activeElement?.textContent),
      'Revoke key…',
      'focus returns',
    );
    assert.equal((await catalog(rotated)).status, 200, 'Escape revoked nothing');
    await page.getByRole('button', { name: 'Revoke key…' }).click();
    await revokeDialog.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText('This key was revoked').waitFor();
    const refused = await catalog(rotated);
    assert.equal(refused.status, 401, 'the API refuses the revoked key');

    // The global activity log, filtered to this key.
    const keyId = new URL(page.url()).pathname.split('/').at(-1) ?? '';
    await page.getByRole('navigation').getByRole('link', { name: 'Activity log' }).click();
    await page.getByLabel('Key id').fill(keyId);
    await page.getByLabel('From (UTC day)').fill(isoDay(0));
    await page.getByLabel(/^To \(UTC day/).fill(isoDay(0));
    await page.getByRole('button', { name: 'Apply filters' }).click();
    const activityRows = page.locator('.activity-table tbody tr');
    await eventually(async () => {
      const rows = await activityRows.allTextContents();
      assert.equal(
        rows.length,
        5,
        `created, scopes changed, rotated, secret closed, revoked: ${rows.length}`,
      );
      assert.ok(
        rows.every((row) => row.includes(keyId)),
        'only this key',
      );
    });
    await saveScreenshot(page, 'activity-log');
    await page.getByLabel('Action').selectOption('key.revoked');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await eventually(async () => assert.deepEqual(await activityRows.count(), 1));
    assert.match(await text(activityRows), /key\.revoked.*status: ?active ?→ ?revoked/s);
    await page.getByLabel('From (UTC day)').fill(isoDay(1));
    await page.getByLabel(/^To \(UTC day/).fill(isoDay(1));
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('No activity.').waitFor();
    ui.assertCleanPages();
  });

  it('does not show a secret again after leaving the create page', async () => {
    const page = await ui.loggedInPage();
    await page.getByRole('navigation').getByRole('link', { name: 'New key' }).click();
    await page.getByLabel('Name', { exact: true }).fill('one-time');
    await page.getByLabel('test', { exact: true }).check();
    await page.getByLabel('article:r', { exact: true }).check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await text(page.getByTestId('secret'))).trim();
    assert.match(secret, /^kg_test_/);
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
    assert.equal(stored.includes(secret), false, 'not in web storage');
    assert.equal(page.url().includes(secret), false, 'not in the URL');

    await page.getByRole('navigation').getByRole('link', { name: 'Keys' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await page.goBack();
    await page.getByRole('heading', { name: 'New API key' }).waitFor();
    assert.equal((await page.content()).includes(secret), false, 'back on the create page: no secret');
    assert.equal(await page.getByLabel('Name', { exact: true }).inputValue(), '', 'a fresh form');
    await page.reload();
    await page.getByRole('heading', { name: 'New API key' }).waitFor();
    assert.equal((await page.content()).includes(secret), false, 'after a reload: no secret');

    await page.getByLabel('Name', { exact: true }).fill('one-time-2');
    await page.getByLabel('article:r', { exact: true }).check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const second = (await text(page.getByTestId('secret'))).trim();
    assert.match(second, /^kg_live_/);
    await page.goto(`${ui.system.gateway.url}/healthz`);
    await page.goBack();
    await page.getByRole('heading', { name: 'New API key' }).waitFor();
    assert.equal((await page.content()).includes(second), false, 'back from another page: no secret');
    ui.assertCleanPages();
  });

  it('shows field errors from the API next to the matching input', async () => {
    const page = await ui.loggedInPage();
    await page.getByRole('navigation').getByRole('link', { name: 'New key' }).click();
    await page.getByLabel('Name', { exact: true }).fill('bad-ip');
    await page.getByLabel('article:r', { exact: true }).check();
    const ips = page.getByRole('textbox', { name: /^IP allowlist/ });
    await ips.fill('10.0.0.1\nnot-an-address');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('alert').waitFor();
    assert.equal(await ips.getAttribute('aria-invalid'), 'true');
    const describedBy = (await ips.getAttribute('aria-describedby')) ?? '';
    const errorId = describedBy.split(' ').find((id) => id.endsWith('-error'));
    assert.ok(errorId, 'the textarea is described by its error');
    assert.match(await text(page.locator(`#${errorId}`)), /entry 2/);
    await page.getByRole('alert').getByRole('link', { name: '/ipAllowlist/1' }).click();
    assert.equal(
      await page.evaluate(() => document.activeElement?.id),
      'key-ips',
      'the summary leads to the field',
    );
    ui.assertCleanPages();
  });

  it('sets up an agency key (limited scopes, expiry, IP allowlist) in one form', async () => {
    const page = await ui.loggedInPage();
    await page.getByRole('navigation').getByRole('link', { name: 'New key' }).click();
    await page.getByLabel(/^Agency key/).check();
    await page.getByLabel('Name', { exact: true }).fill('agency-globex');
    assert.equal(await page.getByLabel('auth:rw', { exact: true }).isDisabled(), true, 'no key management');
    assert.equal(await page.getByLabel(/^Expiry date/).inputValue(), isoDay(90), 'expiry preset');
    await page.getByRole('button', { name: 'Create agency key' }).click();
    const ips = page.getByRole('textbox', { name: /^IP allowlist/ });
    assert.equal(await ips.getAttribute('aria-invalid'), 'true', 'an agency key needs an IP allowlist');
    await ips.fill('198.51.100.0/24');
    await page.getByRole('button', { name: 'Create agency key' }).click();
    await page.getByTestId('secret').waitFor();
    await page.getByRole('link', { name: 'Go to the key page' }).click();
    const keyId = new URL(page.url()).pathname.split('/').at(-1) ?? '';
    const key = await json<Record<string, unknown>>(
      await ui.adminApi(`/keys/${keyId}`, { headers: { Cookie: await ui.sessionCookie() } }),
    );
    assert.deepEqual(
      {
        scopes: key.scopes,
        expiresAt: key.expiresAt,
        ipAllowlist: key.ipAllowlist,
        rateLimit: key.rateLimit,
      },
      {
        scopes: ['article:r', 'pricing:r', 'stock:r'],
        expiresAt: isoDay(90),
        ipAllowlist: ['198.51.100.0/24'],
        rateLimit: { perMinute: 120 },
      },
    );
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
