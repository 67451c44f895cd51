import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import {
  assertCleanPage,
  assertUiBuilt,
  launchChromium,
  openWatchedPage,
  saveScreenshot,
  type WatchedPage,
} from '../support/browser.ts';
import { json, type System, startSystem } from '../support/system.ts';

const EMAIL = 'admin@keygate.test';
const PASSWORD = 'correct horse battery staple';
const CATALOG = '/v2/catalog/products?limit=1';

/** A locator's text content ('' for none). */
async function text(locator: Locator): Promise<string> {
  return (await locator.textContent()) ?? '';
}

/** The displayed prefix of a token: `kg_<env>_<lookup>`. */
function prefixOf(token: string): string {
  return token.split('_').slice(0, 3).join('_');
}

function isoDay(offsetDays: number): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

/** Retries `check` until it passes: usage reaches the store on a flush interval, not per request. */
async function eventually(check: () => Promise<void>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

describe('the admin interface in headless Debian chromium', function () {
  this.timeout(180_000);
  let system: System;
  let browser: Browser;
  let context: BrowserContext;
  let watched: WatchedPage[] = [];

  const catalog = (secret: string) => system.call(secret, CATALOG, { headers: { 'X-Channel': 'WEB_DE' } });
  const adminApi = (path: string, init: RequestInit = {}) =>
    fetch(`${system.gateway.url}/admin/api${path}`, init);

  async function sessionCookie(): Promise<string> {
    const cookie = (await context.cookies(`${system.gateway.url}/admin/api`)).find(
      (c) => c.name === 'keygate_admin',
    );
    assert.ok(cookie, 'the browser holds the admin session cookie');
    return `${cookie.name}=${cookie.value}`;
  }

  async function newPage(): Promise<Page> {
    const page = await openWatchedPage(context, system.gateway.url);
    watched.push(page);
    return page.page;
  }

  /** Logs in through the form unless the context already has a session; lands on the keys list. */
  async function loggedInPage(): Promise<Page> {
    const page = await newPage();
    await page.goto(`${system.gateway.url}/admin/`);
    const login = page.getByRole('heading', { name: 'Log in' });
    const keys = page.getByRole('heading', { name: 'API keys' });
    await login.or(keys).waitFor();
    if (await login.isVisible()) {
      await page.getByLabel('Email').fill(EMAIL);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Log in' }).click();
      await keys.waitFor();
    }
    return page;
  }

  before(async () => {
    assertUiBuilt();
    browser = await launchChromium();
    system = await startSystem({ gatewayEnv: { KEYGATE_USAGE_FLUSH_MS: '200' } });
    const created = await system.keygate('admin', 'create-user', '--email', EMAIL, '--password', PASSWORD);
    assert.equal(created.code, 0, created.stderr);
    await system.createKey({ name: 'ops', env: 'live', scopes: ['auth:rw'] });
    await system.createKey({ name: 'mobile-app', env: 'test', scopes: ['article:r', 'order:rw'] });
    await system.createKey({
      name: 'agency-acme',
      env: 'live',
      scopes: ['article:r', 'pricing:r'],
      extra: ['--expires', isoDay(3), '--ip', '203.0.113.0/24', '--rate-limit', '120'],
    });
  });

  beforeEach(async () => {
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: system.gateway.url });
    watched = [];
  });

  afterEach(async () => {
    await context?.close();
  });

  after(async () => {
    await browser?.close();
    await system?.stop();
  });

  it('answers 401 on /admin/api without a session, even with a valid API key', async () => {
    const ops = await system.createKey({ name: 'bearer-probe', env: 'live', scopes: ['auth:rw'] });
    const probes: Array<Record<string, string>> = [{}, { Authorization: `Bearer ${ops.secret}` }];
    for (const headers of probes) {
      const res = await adminApi('/keys', { headers });
      assert.equal(res.status, 401);
      assert.equal((await json(res)).code, 'ADMIN_SESSION_REQUIRED');
    }
  });

  it('shows the problem for a wrong password and opens no session', async () => {
    const page = await newPage();
    await page.goto(`${system.gateway.url}/admin/`);
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill('not the password at all');
    await page.getByRole('button', { name: 'Log in' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match(await text(alert), /wrong email or password/i);
    assert.equal(await page.getByRole('heading', { name: 'API keys' }).count(), 0);
    const cookies = await context.cookies(`${system.gateway.url}/admin/api`);
    assert.equal(
      cookies.find((c) => c.name === 'keygate_admin'),
      undefined,
      'no session cookie',
    );
    assert.equal((await page.request.get(`${system.gateway.url}/admin/api/session`)).status(), 401);
    await saveScreenshot(page, 'login-refused');
    assertCleanPage(watched[0]!);
  });

  it('logs in with the keyboard alone', async () => {
    const page = await newPage();
    const response = await page.goto(`${system.gateway.url}/admin/`);
    assert.match(
      response?.headers()['content-security-policy'] ?? '',
      /style-src 'self'.*script-src 'self'/,
      'the page works under a CSP without inline scripts or styles',
    );
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    await saveScreenshot(page, 'login');
    // The form takes focus on load; Shift+Tab reaches only the skip link before it.
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'login-email');
    await page.keyboard.press('Shift+Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'login-email');
    await page.keyboard.type(EMAIL);
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Log in');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Log out' }).isVisible(), true);
    assertCleanPage(watched[0]!);
  });

  it('creates, uses, rotates, closes and revokes a key through the pages', async () => {
    const page = await loggedInPage();

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
    assert.notEqual((await system.call(rotated, '/v2/stock/ANY')).status, 403, 'stock:r is granted');

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
    assertCleanPage(watched[0]!);
  });

  it('does not show a secret again after leaving the create page', async () => {
    const page = await loggedInPage();
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
    await page.goto(`${system.gateway.url}/healthz`);
    await page.goBack();
    await page.getByRole('heading', { name: 'New API key' }).waitFor();
    assert.equal((await page.content()).includes(second), false, 'back from another page: no secret');
    assertCleanPage(watched[0]!);
  });

  it('shows field errors from the API next to the matching input', async () => {
    const page = await loggedInPage();
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
    assertCleanPage(watched[0]!);
  });

  it('sets up an agency key (limited scopes, expiry, IP allowlist) in one form', async () => {
    const page = await loggedInPage();
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
      await adminApi(`/keys/${keyId}`, { headers: { Cookie: await sessionCookie() } }),
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
    assertCleanPage(watched[0]!);
  });

  it('refuses a cross-site POST that carries the session cookie, and changes nothing', async () => {
    await loggedInPage();
    const cookie = await sessionCookie();
    const session = await json<{ csrfToken: string }>(
      await adminApi('/session', { headers: { Cookie: cookie } }),
    );
    const listKeys = async () => {
      const res = await adminApi('/keys', { headers: { Cookie: cookie } });
      const { items } = await json<{ items: Array<{ id: string; status: string; version: number }> }>(res);
      return items.map((key) => ({ id: key.id, status: key.status, version: key.version }));
    };
    const before = await listKeys();
    const body = JSON.stringify({ name: 'csrf', environment: 'live', scopes: ['auth:rw'] });
    const post = (headers: Record<string, string>) =>
      adminApi('/keys', {
        method: 'POST',
        body,
        headers: { Cookie: cookie, 'Content-Type': 'application/json', ...headers },
      });

    const crossSite = await post({
      Origin: 'https://evil.example',
      'Sec-Fetch-Site': 'cross-site',
      'X-CSRF-Token': session.csrfToken,
    });
    assert.equal(crossSite.status, 403);
    assert.equal((await json(crossSite)).code, 'CSRF_REJECTED');
    const withoutToken = await post({});
    assert.equal(withoutToken.status, 403, 'a same-origin POST without the CSRF token is refused too');
    const victim = before.find((k) => k.status === 'active');
    assert.ok(victim);
    const revoke = await adminApi(`/keys/${victim.id}`, {
      method: 'DELETE',
      headers: { Cookie: cookie, Origin: 'https://evil.example', 'X-CSRF-Token': session.csrfToken },
    });
    assert.equal(revoke.status, 403);
    assert.deepEqual(await listKeys(), before, 'no key was created or revoked');

    const sameOrigin = await post({ 'X-CSRF-Token': session.csrfToken });
    assert.equal(sameOrigin.status, 201, 'the same request from the admin page itself is accepted');
  });

  it('goes back to the login with a message when the session ends', async () => {
    const page = await loggedInPage();
    const cookie = await sessionCookie();
    const session = await json<{ csrfToken: string }>(
      await adminApi('/session', { headers: { Cookie: cookie } }),
    );
    const ended = await adminApi('/session', {
      method: 'DELETE',
      headers: { Cookie: cookie, 'X-CSRF-Token': session.csrfToken },
    });
    assert.equal(ended.status, 204);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    assert.match(await text(page.locator('.login-message')), /session ended/i);
    assertCleanPage(watched[0]!);
  });

  it('logs out, ending the session on the server', async () => {
    const page = await loggedInPage();
    const cookie = await sessionCookie();
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    assert.match(await text(page.locator('.login-message')), /logged out/i);
    assert.equal(
      (await adminApi('/keys', { headers: { Cookie: cookie } })).status,
      401,
      'the old cookie is dead',
    );
    assertCleanPage(watched[0]!);
  });

  it('throttles repeated failed logins and says when to try again', async () => {
    const page = await newPage();
    await page.goto(`${system.gateway.url}/admin/`);
    const throttled = page.locator('.retry-after');
    for (let attempt = 0; attempt < 10 && !(await throttled.isVisible()); attempt++) {
      await page.getByLabel('Email').fill('intruder@keygate.test');
      await page.getByLabel('Password').fill(`guess number ${attempt}`);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('alert').waitFor();
      await page.getByRole('button', { name: 'Log in' }).and(page.locator(':enabled')).waitFor();
    }
    assert.match(await text(throttled), /try again in \d+/);
    assert.match(await text(page.getByRole('alert')), /too many failed logins/i);
    assertCleanPage(watched[0]!);
  });
});
