import assert from 'node:assert/strict';
import { isoDay, prefixOf, settle, text, useAdminUi } from '../support/admin-ui.ts';
import { saveScreenshot, updateReadmeScreenshot } from '../support/browser.ts';

const CATALOG = '/v2/catalog/products?limit=1';
/** A seeded product's stock (commerce's SEED_SKUS.promotion). */
const STOCK = '/v2/stock/KG-00001';

describe('the admin interface in headless Debian chromium: a key from creation to revocation', function () {
  this.timeout(180_000);
  // Other keys beside the one under test, so the list (and the README screenshot) looks lived-in.
  const ui = useAdminUi({
    async seed(system) {
      await system.createKey({ name: 'ops', env: 'live', scopes: ['auth:rw'] });
      await system.createKey({ name: 'mobile-app', env: 'test', scopes: ['article:r', 'order:rw'] });
      await system.createKey({
        name: 'agency-acme',
        env: 'live',
        scopes: ['article:r', 'pricing:r'],
        extra: ['--expires', isoDay(3), '--ip', '203.0.113.0/24', '--rate-limit', '120'],
      });
    },
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
    await settle('both secrets are counted', async () => {
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
    updateReadmeScreenshot(await saveScreenshot(page, 'keys-list-during-rotation'));
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
    const stock = () => ui.system.call(rotated, STOCK);
    assert.equal((await stock()).status, 403, 'no stock:r yet');
    await page.getByLabel('stock:r', { exact: true }).check();
    await page.getByRole('button', { name: 'Save scopes' }).click();
    await page.getByText('Scopes saved: article:r, order:rw, stock:r.').waitFor();
    assert.equal((await stock()).status, 200, 'stock:r is granted');

    // Usage charts, API log (paged) and activity of the key.
    for (let i = 0; i < 25; i++) assert.equal((await catalog(rotated)).status, 200);
    await page.getByLabel('Range').selectOption('1h');
    await settle('the usage shows the calls', async () => {
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
    await settle('the API log shows a full first page', async () => {
      await page.getByRole('button', { name: 'Refresh log' }).click();
      assert.equal(await logRows.count(), 25, 'the first page of the API log');
      await page.getByRole('button', { name: 'Load older calls' }).waitFor({ timeout: 1000 });
    });
    await page.getByRole('button', { name: 'Load older calls' }).click();
    await settle('the next page is appended', async () => assert.ok((await logRows.count()) > 25));
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
    await settle('the activity of this key is listed', async () => {
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
    await settle('only the revocation is listed', async () => assert.equal(await activityRows.count(), 1));
    assert.match(await text(activityRows), /key\.revoked.*status: ?active ?→ ?revoked/s);
    await page.getByLabel('From (UTC day)').fill(isoDay(1));
    await page.getByLabel(/^To \(UTC day/).fill(isoDay(1));
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('No activity.').waitFor();
    ui.assertCleanPages();
  });
});
