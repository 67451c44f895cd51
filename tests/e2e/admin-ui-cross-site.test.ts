import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { useAdminUi } from '../support/admin-ui.ts';
import { json } from '../support/system.ts';

/** A site of its own (`http://localhost:<port>`; the gateway is `http://127.0.0.1:<port>`) serving fixed pages. */
async function startForeignSite(
  pages: Record<string, string>,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const page = pages[req.url ?? ''];
    if (page === undefined) res.writeHead(404).end();
    else res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}`,
    // Chromium may hold a connection it opened ahead (a preconnect, no request yet): `close` alone
    // would wait for it until the browser goes, so every connection is closed with the server.
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A text/plain form whose body reads as JSON, submitted as soon as the page loads. */
function autoSubmitPage(action: string): string {
  const name = '{"name":"csrf-form","environment":"live","scopes":["auth:rw"],"pad":"';
  return `<!doctype html><title>You won</title>
<form id="f" method="post" action="${action}" enctype="text/plain"><input type="hidden" name='${name}' value='"}'></form>
<script>document.getElementById('f').submit();</script>`;
}

/** Fires credentialed requests at the gateway; `window.outcome` says which ones the browser let out. */
function fetchPage(gateway: string, keyId: string): string {
  return `<!doctype html><title>Cute cats</title><script>
const key = ${JSON.stringify(`${gateway}/admin/api/keys/${keyId}`)};
const attempt = async (label, url, init) => {
  try { const res = await fetch(url, { credentials: 'include', ...init }); return label + ': sent, ' + res.type; }
  catch (error) { return label + ': not sent, ' + error.name; }
};
window.outcome = Promise.all([
  attempt('no-cors DELETE', key, { method: 'DELETE', mode: 'no-cors' }),
  attempt('no-cors POST scopes', key + '/scopes', { method: 'POST', mode: 'no-cors',
    headers: { 'Content-Type': 'text/plain' }, body: JSON.stringify({ scopes: ['auth:rw'] }) }),
  attempt('cors DELETE', key, { method: 'DELETE', mode: 'cors' }),
]);
</script>`;
}

describe('the admin interface in headless Debian chromium: cross-site requests', function () {
  this.timeout(180_000);
  const ui = useAdminUi();

  it('refuses a cross-site form POST and credentialed fetches from a logged-in browser, changing nothing', async () => {
    const victim = await ui.system.createKey({ name: 'csrf-victim', env: 'live', scopes: ['article:r'] });
    const admin = await ui.loggedInPage();
    const cookie = await ui.sessionCookie();
    const keysNow = async () => {
      const res = await ui.adminApi('/keys', { headers: { Cookie: cookie } });
      assert.equal(res.status, 200, 'the administrator is logged in');
      const { items } = await json<{ items: Array<Record<string, unknown>> }>(res);
      return items.map(({ id, name, status, version, scopes }) => ({ id, name, status, version, scopes }));
    };
    const before = await keysNow();
    const gateway = ui.system.gateway.url;
    const seen: string[] = [];
    ui.context.on('response', (res) => {
      if (res.url().startsWith(`${gateway}/admin/api/`) && res.frame().page() !== admin)
        seen.push(`${res.request().method()} ${res.url().slice(gateway.length)} ${res.status()}`);
    });
    const site = await startForeignSite({
      '/form.html': autoSubmitPage(`${gateway}/admin/api/keys`),
      '/fetch.html': fetchPage(gateway, victim.id),
    });
    try {
      const page = await ui.context.newPage();
      await page.goto(`${site.url}/fetch.html`);
      const outcome = await page.evaluate<string[]>('window.outcome');
      assert.deepEqual(outcome, [
        'no-cors DELETE: not sent, TypeError',
        'no-cors POST scopes: sent, opaque',
        'cors DELETE: not sent, TypeError',
      ]);
      const [answer] = await Promise.all([
        page.waitForResponse(`${gateway}/admin/api/keys`),
        page.goto(`${site.url}/form.html`),
      ]);
      assert.equal(answer.request().method(), 'POST');
      assert.equal(answer.status(), 403);
      assert.equal((await answer.json()).code, 'CSRF_REJECTED');
    } finally {
      await site.close();
    }
    assert.deepEqual(seen.sort(), [
      `POST /admin/api/keys 403`,
      `POST /admin/api/keys/${victim.id}/scopes 403`,
    ]);
    assert.deepEqual(await keysNow(), before, 'no key was created, changed or revoked');
  });
});
