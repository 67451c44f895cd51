import assert from 'node:assert/strict';
import { isoDay, text, useAdminUi } from '../support/admin-ui.ts';
import { json } from '../support/system.ts';

describe('the admin interface in headless Debian chromium: the create-key form', function () {
  this.timeout(180_000);
  const ui = useAdminUi();

  /** The key the page shows after "Go to the key page", as the admin API returns it. */
  const keyOfPage = async (url: string) => {
    const keyId = new URL(url).pathname.split('/').at(-1) ?? '';
    const res = await ui.adminApi(`/keys/${keyId}`, { headers: { Cookie: await ui.sessionCookie() } });
    assert.equal(res.status, 200);
    return json<Record<string, unknown>>(res);
  };

  it('creates a key with auth:rw, warning inline what that key may do', async () => {
    const page = await ui.loggedInPage();
    await page.getByRole('navigation').getByRole('link', { name: 'New key' }).click();
    await page.getByLabel('Name', { exact: true }).fill('key-manager');
    await page.getByLabel('live', { exact: true }).check();
    const warning = page.getByText('auth:rw lets this key create, change and revoke keys.');
    assert.equal(await warning.count(), 0, 'no warning before auth:rw is chosen');
    await page.getByLabel('auth:rw', { exact: true }).check();
    await warning.waitFor();
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await text(page.getByTestId('secret'))).trim();
    assert.match(secret, /^kg_live_/);
    await page.getByRole('link', { name: 'Go to the key page' }).click();
    await page.getByRole('heading', { level: 1, name: /key-manager/ }).waitFor();
    const key = await keyOfPage(page.url());
    assert.ok((key.scopes as string[]).includes('auth:rw'), `scopes: ${String(key.scopes)}`);
    const managed = await ui.system.call(secret, '/v2/auth/keys');
    assert.equal(managed.status, 200, 'the new key manages keys through the API');
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
    await page.getByRole('heading', { level: 1, name: /agency-globex/ }).waitFor();
    const key = await keyOfPage(page.url());
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
});
