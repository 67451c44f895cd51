import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { settle, text, useAdminUi } from '../support/admin-ui.ts';
import { findAccessibilityViolations } from '../support/axe.ts';
import { saveScreenshot, updateReadmeScreenshot } from '../support/browser.ts';
import { ROOT } from '../support/processes.ts';

const CATALOG = '/v2/catalog/products?limit=1';
const DAY_QUOTA = 5;

/** The text under a quota bar, e.g. "3 of 5 used today (UTC) (60%), 2 left". */
const quotaText = (page: Page, period: string) => text(page.locator(`#quota-${period}-text`));

/** The calls of one outcome in the "Calls in <month>" table. */
async function outcomeCalls(page: Page, outcome: string): Promise<string> {
  const row = page.locator('.outcomes-table tr', { has: page.getByRole('rowheader', { name: outcome }) });
  return text(row.locator('td').first());
}

describe('the admin interface in headless Debian chromium: plans, identities and credits', function () {
  this.timeout(180_000);
  const ui = useAdminUi();
  const catalog = (secret: string) => ui.system.call(secret, CATALOG, { headers: { 'X-Channel': 'WEB_DE' } });

  it('sells a plan to an identity, shows its real usage against the quota and tops up its credits (axe-clean)', async () => {
    const page = await ui.loggedInPage();

    // A plan: 100 calls a minute, 5 a day, 1,000 a month.
    await page.getByRole('navigation').getByRole('link', { name: 'Plans' }).click();
    await page.getByRole('button', { name: 'New plan' }).click();
    await page.getByLabel('Plan name').fill('Starter');
    await page.getByLabel('Limit 1 calls').fill('100');
    await page.getByLabel('Per day').fill(String(DAY_QUOTA));
    await page.getByLabel('Per month').fill('1000');
    await page.getByRole('button', { name: 'Create plan' }).click();
    const planRow = page.locator('tr.plan-row', { has: page.getByRole('rowheader', { name: 'Starter' }) });
    await planRow.waitFor();
    assert.equal(await text(planRow.locator('td').first()), 'minute: 100/minute · 5/day · 1,000/month');

    // A customer on it, with metadata and 10 starting credits; the page of the new identity opens.
    await page.getByRole('navigation').getByRole('link', { name: 'Identities' }).click();
    await page.getByRole('button', { name: 'New identity' }).click();
    const form = page.getByRole('region', { name: 'New identity' });
    await form.getByLabel(/^External id/).fill('acme-gmbh');
    await form.getByLabel('Environment').selectOption('test');
    await form.getByLabel('Plan', { exact: true }).selectOption({ label: 'Starter' });
    await form.getByLabel(/^Metadata/).fill('{"tier": "gold"}');
    await form.getByLabel(/^Starting credits/).fill('10');
    await form.getByLabel(/^Send credits.low below/).fill('4');
    await form.getByRole('button', { name: 'Create identity' }).click();
    await page.getByRole('heading', { name: 'Identity acme-gmbh', level: 1 }).waitFor();
    const identityId = /\/identities\/(idt_[A-Za-z0-9_-]+)$/.exec(page.url())?.[1];
    assert.ok(identityId, `the identity's page is at /admin/identities/<id>: ${page.url()}`);
    await settle('the identity page names its plan', async () => {
      assert.match(
        await text(page.locator('.details')),
        /Starter: minute: 100\/minute · 5\/day · 1,000\/month/,
      );
    });
    assert.match(await text(page.locator('.details')), /"tier":"gold"/);
    // Its credits.low level, given with the starting credits, is stored and shown where it is changed.
    assert.equal(await page.getByLabel(/^Send credits.low below/).inputValue(), '4');
    const storedIdentity = await ui.adminApi(`/identities/${identityId}`, {
      headers: { Cookie: await ui.sessionCookie() },
    });
    assert.deepEqual(((await storedIdentity.json()) as { credits: unknown }).credits, {
      refill: null,
      lowAt: 4,
    });

    // A key of that identity (the CLI), and three calls with it through the gateway.
    const key = await ui.system.createKey({
      name: 'acme-shop',
      env: 'test',
      scopes: ['article:r'],
      extra: ['--identity', identityId],
    });
    for (let i = 0; i < 3; i++) assert.equal((await catalog(key.secret)).status, 200);

    // The quota bars show what the gateway counted: 3 of 5 today, 3 of 1,000 this month; 7 credits left.
    await settle('the identity page shows the three calls', async () => {
      await page.getByRole('button', { name: 'Reload' }).click();
      assert.equal(await quotaText(page, 'day'), '3 of 5 used today (UTC) (60%), 2 left');
    });
    assert.equal(await page.getByRole('meter', { name: /^Quota per day/ }).getAttribute('value'), '3');
    assert.equal(await quotaText(page, 'month'), '3 of 1,000 used this month (0%), 997 left');
    assert.equal(await page.locator('#quota-week').count(), 0, 'the plan has no weekly quota');
    assert.equal(await text(page.locator('.credits-remaining strong')), '7');
    assert.equal(await outcomeCalls(page, 'VALID'), '3');
    assert.equal(
      await page.getByRole('link', { name: 'acme-shop' }).count(),
      1,
      'the identity lists its key',
    );

    // Top up by 20: the balance the gateway answers is shown.
    await page.getByLabel('Change', { exact: true }).selectOption({ label: 'Top up by' });
    await page.getByLabel('Amount of credits').fill('20');
    await page.getByRole('button', { name: 'Apply' }).click();
    await settle('the topped-up balance is shown', async () => {
      assert.equal(await text(page.locator('.credits-remaining strong')), '27');
    });
    // Two more calls use up the day; the sixth is refused and the bar is full.
    for (let i = 0; i < 2; i++) assert.equal((await catalog(key.secret)).status, 200);
    const refused = await catalog(key.secret);
    assert.equal(refused.status, 429);
    assert.equal(((await refused.json()) as { code: string }).code, 'QUOTA_EXCEEDED');
    await settle('the day quota is shown full, with the refused call', async () => {
      await page.getByRole('button', { name: 'Reload' }).click();
      assert.equal(await quotaText(page, 'day'), '5 of 5 used today (UTC) (100%), 0 left');
      assert.equal(await outcomeCalls(page, 'QUOTA_EXCEEDED'), '1');
    });
    assert.equal(await text(page.locator('.credits-remaining strong')), '25');
    assert.equal(await outcomeCalls(page, 'VALID'), '5');
    const findings = await findAccessibilityViolations(page);
    const screenshot = await saveScreenshot(page, 'identity-page');
    updateReadmeScreenshot(screenshot, join(ROOT, 'docs/admin-identity.png'));

    // A bad amount is refused with the API's detail, and the balance stays.
    await page.getByLabel('Change', { exact: true }).selectOption({ label: 'Set to' });
    await page.getByLabel('Amount of credits').fill('-4');
    await page.getByRole('button', { name: 'Apply' }).click();
    const refusedChange = page.locator('.credits-form [role="alert"]');
    await refusedChange.waitFor();
    assert.match(await text(refusedChange), /Invalid request\s*\/set .*(0|negative)/);
    assert.equal(await text(page.locator('.credits-remaining strong')), '25');

    // The key's page: its plan and identity, no credits of its own, its billing usage of the month.
    await page.getByRole('link', { name: 'acme-shop' }).click();
    await page.getByRole('heading', { name: 'Plan, credits and billing' }).waitFor();
    assert.equal(await page.getByLabel('Identity', { exact: true }).inputValue(), identityId);
    const notHeld = page.locator('.credits-none');
    await notHeld.waitFor();
    assert.equal(await text(notHeld), "This key spends its identity's credits. Top them up there.");
    assert.equal(
      await notHeld.getByRole('link', { name: 'its identity' }).getAttribute('href'),
      `/admin/identities/${identityId}`,
    );
    await settle("the key's billing of the month is shown", async () => {
      await page.getByRole('button', { name: 'Reload' }).click();
      assert.equal(await outcomeCalls(page, 'VALID'), '5');
    });

    // The key gets the plan of its own too (PATCH): the page shows its quotas, counted on the key.
    await page.getByLabel('Plan', { exact: true }).selectOption({ label: 'Starter' });
    await page.getByRole('button', { name: 'Save plan and identity' }).click();
    await settle('the key on the plan shows its own quota bars', async () => {
      assert.match(await quotaText(page, 'month'), /^\d+ of 1,000 used this month/);
    });
    const stored = (await (
      await ui.adminApi(`/keys/${key.id}`, { headers: { Cookie: await ui.sessionCookie() } })
    ).json()) as { planId: string | null; identityId: string | null };
    assert.equal(stored.identityId, identityId);
    assert.match(stored.planId ?? '', /^plan_/);

    // The plan is in use: deleting it is refused with the gateway's own explanation.
    await page.getByRole('navigation').getByRole('link', { name: 'Plans' }).click();
    await page.getByRole('button', { name: 'Delete plan Starter' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete plan' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match(await text(alert), /Plan in use/);
    assert.match(await text(alert.locator('.problem-detail')), /\S/);
    assert.equal(await page.locator('tr.plan-row').count(), 1, 'the plan is still listed');
    findings.push(...(await findAccessibilityViolations(page)));
    assert.deepEqual(findings, [], 'no WCAG 2.1 A/AA violations (axe-core) on the identity and plans pages');

    // The billing export of this month, as the Identities page links it, from the browser's session.
    await page.getByRole('navigation').getByRole('link', { name: 'Identities' }).click();
    const month = new Date().toISOString().slice(0, 7);
    const href = await page.getByRole('link', { name: `CSV export of ${month}` }).getAttribute('href');
    assert.equal(href, `/admin/api/usage/export?period=${month}&format=csv`);
    const exported = await fetch(`${ui.system.gateway.url}${href}`, {
      headers: { Cookie: await ui.sessionCookie() },
    });
    assert.equal(exported.status, 200);
    const csv = await exported.text();
    assert.match(csv, new RegExp(`^${month},identity,${identityId},acme-gmbh,test,VALID,5,5\\r$`, 'm'));
    assert.match(
      csv,
      new RegExp(`^${month},identity,${identityId},acme-gmbh,test,QUOTA_EXCEEDED,1,0\\r$`, 'm'),
    );

    // Editing the plan raises the day quota: the list shows it and the gateway admits the next call.
    await page.getByRole('navigation').getByRole('link', { name: 'Plans' }).click();
    await page.getByRole('button', { name: 'Edit plan Starter' }).click();
    await page.getByLabel('Per day').fill('10');
    await page.getByRole('button', { name: 'Save plan' }).click();
    await settle('the plan shows its new day quota', async () => {
      assert.equal(await text(planRow.locator('td').first()), 'minute: 100/minute · 10/day · 1,000/month');
    });
    assert.equal((await catalog(key.secret)).status, 200, 'the raised quota admits the next call');
    ui.assertCleanPages();
  });

  it("shows and tops up a key's own credits on its page", async () => {
    const key = await ui.system.createKey({
      name: 'prepaid-app',
      env: 'test',
      scopes: ['article:r'],
      extra: ['--credits', '5'],
    });
    assert.equal((await catalog(key.secret)).status, 200);
    const page = await ui.loggedInPage();
    await page.getByRole('link', { name: 'prepaid-app', exact: true }).click();
    await page.getByRole('heading', { name: 'Plan, credits and billing' }).waitFor();
    await settle('the balance after one call is shown', async () => {
      await page.getByRole('button', { name: 'Reload' }).click();
      assert.equal(await text(page.locator('.credits-remaining strong')), '4');
    });
    await page.locator('.key-budget').getByText('No quotas apply.').waitFor();
    await page.getByLabel('Change', { exact: true }).selectOption({ label: 'Top up by' });
    await page.getByLabel('Amount of credits').fill('10');
    await page.getByRole('button', { name: 'Apply' }).click();
    await settle('the topped-up balance is shown', async () => {
      assert.equal(await text(page.locator('.credits-remaining strong')), '14');
    });
    const stored = await ui.adminApi(`/keys/${key.id}/credits`, {
      headers: { Cookie: await ui.sessionCookie() },
    });
    assert.equal(((await stored.json()) as { remaining: number }).remaining, 14);
    await settle("the key's call of the month is shown", async () => {
      await page.getByRole('button', { name: 'Reload' }).click();
      assert.equal(await outcomeCalls(page, 'VALID'), '1');
    });

    // The credits.low level: a bad one is refused in place and changes nothing; a good one is kept.
    const level = page.getByLabel(/^Send credits.low below/);
    const storedLevel = async () => {
      const read = await ui.adminApi(`/keys/${key.id}`, { headers: { Cookie: await ui.sessionCookie() } });
      return ((await read.json()) as { credits: { lowAt?: number } }).credits.lowAt;
    };
    await level.fill('-2');
    await page.getByRole('button', { name: 'Save level' }).click();
    await page.locator('.credits-level-form [role="alert"]').waitFor();
    assert.equal(await storedLevel(), undefined);
    await level.fill('3');
    await page.getByRole('button', { name: 'Save level' }).click();
    await page.getByText('A credits.low alert is sent once the balance falls below 3.').waitFor();
    assert.equal(await storedLevel(), 3);
    assert.equal(await page.getByLabel(/^Send credits.low below/).inputValue(), '3');
    ui.assertCleanPages();
  });
});
