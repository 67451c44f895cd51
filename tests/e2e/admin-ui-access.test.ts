import assert from 'node:assert/strict';
import { ADMIN_EMAIL, ADMIN_PASSWORD, text, useAdminUi } from '../support/admin-ui.ts';
import { saveScreenshot } from '../support/browser.ts';
import { json } from '../support/system.ts';

describe('the admin interface in headless Debian chromium: sessions and access', function () {
  this.timeout(180_000);
  const ui = useAdminUi();

  it('answers 401 on /admin/api without a session, even with a valid API key', async () => {
    const ops = await ui.system.createKey({ name: 'bearer-probe', env: 'live', scopes: ['auth:rw'] });
    const probes: Array<Record<string, string>> = [{}, { Authorization: `Bearer ${ops.secret}` }];
    for (const headers of probes) {
      const res = await ui.adminApi('/keys', { headers });
      assert.equal(res.status, 401);
      assert.equal((await json(res)).code, 'ADMIN_SESSION_REQUIRED');
    }
  });

  it('shows the problem for a wrong password and opens no session', async () => {
    const page = await ui.newPage();
    await page.goto(`${ui.system.gateway.url}/admin/`);
    await page.getByLabel('Email').fill(ADMIN_EMAIL);
    await page.getByLabel('Password').fill('not the password at all');
    await page.getByRole('button', { name: 'Log in' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match(await text(alert), /wrong email or password/i);
    assert.equal(await page.getByRole('heading', { name: 'API keys' }).count(), 0);
    const cookies = await ui.context.cookies(`${ui.system.gateway.url}/admin/api`);
    assert.equal(
      cookies.find((c) => c.name === 'keygate_admin'),
      undefined,
      'no session cookie',
    );
    assert.equal((await page.request.get(`${ui.system.gateway.url}/admin/api/session`)).status(), 401);
    await saveScreenshot(page, 'login-refused');
    ui.assertCleanPages();
  });

  it('logs in with the keyboard alone', async () => {
    const page = await ui.newPage();
    const response = await page.goto(`${ui.system.gateway.url}/admin/`);
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
    await page.keyboard.type(ADMIN_EMAIL);
    await page.keyboard.press('Tab');
    await page.keyboard.type(ADMIN_PASSWORD);
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Log in');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Log out' }).isVisible(), true);
    ui.assertCleanPages();
  });

  it('refuses a POST with a foreign Origin or without the CSRF token (sent from Node), and changes nothing', async () => {
    const victim = await ui.system.createKey({ name: 'csrf-victim', env: 'live', scopes: ['article:r'] });
    await ui.loggedInPage();
    const cookie = await ui.sessionCookie();
    const session = await json<{ csrfToken: string }>(
      await ui.adminApi('/session', { headers: { Cookie: cookie } }),
    );
    const listKeys = async () => {
      const res = await ui.adminApi('/keys', { headers: { Cookie: cookie } });
      const { items } = await json<{ items: Array<{ id: string; status: string; version: number }> }>(res);
      return items.map((key) => ({ id: key.id, status: key.status, version: key.version }));
    };
    const before = await listKeys();
    const body = JSON.stringify({ name: 'csrf', environment: 'live', scopes: ['auth:rw'] });
    const post = (headers: Record<string, string>) =>
      ui.adminApi('/keys', {
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
    const revoke = await ui.adminApi(`/keys/${victim.id}`, {
      method: 'DELETE',
      headers: { Cookie: cookie, Origin: 'https://evil.example', 'X-CSRF-Token': session.csrfToken },
    });
    assert.equal(revoke.status, 403);
    assert.deepEqual(await listKeys(), before, 'no key was created or revoked');

    const sameOrigin = await post({ 'X-CSRF-Token': session.csrfToken });
    assert.equal(sameOrigin.status, 201, 'the same request from the admin page itself is accepted');
  });

  it('goes back to the login with a message when the session ends', async () => {
    const page = await ui.loggedInPage();
    const cookie = await ui.sessionCookie();
    const session = await json<{ csrfToken: string }>(
      await ui.adminApi('/session', { headers: { Cookie: cookie } }),
    );
    const ended = await ui.adminApi('/session', {
      method: 'DELETE',
      headers: { Cookie: cookie, 'X-CSRF-Token': session.csrfToken },
    });
    assert.equal(ended.status, 204);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    assert.match(await text(page.locator('.login-message')), /session ended/i);
    ui.assertCleanPages();
  });

  it('logs out, ending the session on the server', async () => {
    const page = await ui.loggedInPage();
    const cookie = await ui.sessionCookie();
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    assert.match(await text(page.locator('.login-message')), /logged out/i);
    assert.equal(
      (await ui.adminApi('/keys', { headers: { Cookie: cookie } })).status,
      401,
      'the old cookie is dead',
    );
    ui.assertCleanPages();
  });
});

describe('the admin interface in headless Debian chromium: the login throttle', function () {
  this.timeout(180_000);
  const MAX_FAILURES = 2;
  // A system of its own: the throttle locks 127.0.0.1 out of every login for the window.
  const ui = useAdminUi({ gatewayEnv: { KEYGATE_ADMIN_LOGIN_MAX_FAILURES: String(MAX_FAILURES) } });

  it('throttles repeated failed logins, says when to try again, and refuses even the right password', async () => {
    const page = await ui.newPage();
    await page.goto(`${ui.system.gateway.url}/admin/`);
    const logIn = async (email: string, password: string): Promise<number> => {
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(password);
      const [answer] = await Promise.all([
        page.waitForResponse(
          (res) => res.url().endsWith('/admin/api/session') && res.request().method() === 'POST',
        ),
        page.getByRole('button', { name: 'Log in' }).click(),
      ]);
      await page.getByRole('alert').waitFor();
      await page.getByRole('button', { name: 'Log in' }).and(page.locator(':enabled')).waitFor();
      return answer.status();
    };
    for (let attempt = 1; attempt <= MAX_FAILURES; attempt++) {
      assert.equal(
        await logIn('intruder@keygate.test', `guess number ${attempt}`),
        401,
        `attempt ${attempt}`,
      );
      assert.match(await text(page.getByRole('alert')), /wrong email or password/i);
    }
    assert.equal(await logIn('intruder@keygate.test', 'one guess too many'), 429);
    const throttled = page.locator('.retry-after');
    await throttled.waitFor();
    assert.match(await text(throttled), /try again in \d+/);
    assert.match(await text(page.getByRole('alert')), /too many failed logins/i);
    assert.equal(
      await logIn(ADMIN_EMAIL, ADMIN_PASSWORD),
      429,
      'the address is locked out, right password or not',
    );
    assert.match(await text(page.getByRole('alert')), /too many failed logins/i);
    assert.equal(await page.getByRole('heading', { name: 'API keys' }).count(), 0);
    ui.assertCleanPages();
  });
});
