import assert from 'node:assert/strict';
import { useAdminUi } from '../support/admin-ui.ts';
import { type OtlpReceiver, startOtlpReceiver } from '../support/otlp-receiver.ts';
import { json } from '../support/system.ts';
import { waitUntil } from '../support/traffic.ts';

describe('the admin interface in headless Debian chromium: the sandbox', function () {
  this.timeout(180_000);
  let testKey: { id: string; secret: string };
  // The gateway traces (to a receiver of this test), so each API log line names its call's trace.
  let otlp: OtlpReceiver | undefined;
  const gatewayEnv: Record<string, string> = {};
  before(async () => {
    otlp = await startOtlpReceiver();
    gatewayEnv.OTEL_EXPORTER_OTLP_ENDPOINT = otlp.url;
  });
  after(async () => {
    await otlp?.close();
  });
  const ui = useAdminUi({
    gatewayEnv,
    async seed(system) {
      testKey = await system.createKey({
        name: 'sandbox-app',
        env: 'test',
        scopes: ['order:rw', 'article:r'],
      });
    },
  });

  it("shows a test key's request and response bodies, and the call's trace id, in its API log", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const cart = await ui.system.call(testKey.secret, '/v2/carts', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
      body: JSON.stringify({ channel: 'WEB_DE' }),
    });
    assert.equal(cart.status, 201, await cart.clone().text());
    const { id: cartId } = await json<{ id: string }>(cart);
    const page = await ui.loggedInPage();
    await page.goto(`${ui.system.gateway.url}/admin/keys/${testKey.id}`);
    await page.getByRole('heading', { name: 'sandbox-app' }).waitFor();
    const bodies = page.locator('details.log-bodies').first();
    await waitUntil('the call is in the log', async () => {
      await page.getByRole('button', { name: 'Refresh log' }).click();
      return (await page.locator('details.log-bodies').count()) > 0;
    });
    await bodies.getByText('Bodies').click();
    assert.equal(await bodies.locator('pre').first().textContent(), '{"channel":"WEB_DE"}');
    assert.match((await bodies.locator('pre').nth(1).textContent()) ?? '', new RegExp(cartId));
    const row = page.locator('tr', { has: page.locator('details.log-bodies') }).first();
    assert.equal(await row.locator('code.trace-id').textContent(), traceId);
    ui.assertCleanPages();
  });

  it('resets the test data behind a confirmation and lists who did it in the activity log', async () => {
    const order = await ui.system.call(testKey.secret, '/v2/carts', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ channel: 'WEB_DE' }),
    });
    const { id: cartId } = await json<{ id: string }>(order);
    assert.equal((await ui.system.call(testKey.secret, `/v2/carts/${cartId}`)).status, 200);
    const page = await ui.loggedInPage();
    await page.getByRole('navigation').getByRole('link', { name: 'Activity log' }).click();
    await page.getByRole('button', { name: 'Reset test data…' }).click();
    const dialog = page.getByRole('dialog', { name: "Reset the test environment's data?" });
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    assert.equal(
      (await ui.system.call(testKey.secret, `/v2/carts/${cartId}`)).status,
      200,
      'Escape reset nothing',
    );
    await page.getByRole('button', { name: 'Reset test data…' }).click();
    await dialog.getByRole('button', { name: 'Reset test data' }).click();
    await page.getByText('Test data reset to the seed').waitFor();
    assert.equal((await ui.system.call(testKey.secret, `/v2/carts/${cartId}`)).status, 404, 'carts dropped');
    const row = page.locator('tr', { has: page.getByText('sandbox.reset', { exact: true }) });
    await row.first().waitFor();
    assert.match((await row.first().textContent()) ?? '', /admin\s*adm_/);
    ui.assertCleanPages();
  });
});
