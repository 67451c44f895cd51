import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { ROOT } from './processes.ts';

/** Debian's chromium; the tests never download a browser. */
export const CHROMIUM_PATH = '/usr/bin/chromium';
/** Screenshots of the admin pages, kept as test artifacts (gitignored). */
export const ARTIFACTS_DIR = join(ROOT, 'tests/artifacts/admin-ui');
/** The keys-list screenshot shown in the README. */
export const README_SCREENSHOT = join(ROOT, 'docs/admin-keys.png');
/** Where `pnpm build:ui` writes the admin interface the gateway serves. */
export const ADMIN_UI_DIST = join(ROOT, 'packages/admin-ui/dist');

/** Launches headless Debian chromium; throws (never skips) when it is missing. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Debian chromium is missing at ${CHROMIUM_PATH}: install it (apt-get install chromium; .ci/run does). ` +
        'The admin interface tests need a real browser and never download one.',
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Throws unless the admin interface was built (the gateway serves it from ADMIN_UI_DIST). */
export function assertUiBuilt(): void {
  if (!existsSync(join(ADMIN_UI_DIST, 'index.html'))) {
    throw new Error(`the admin interface is not built (${ADMIN_UI_DIST}): run pnpm build:ui first`);
  }
}

/** A page plus what it did that a user of a locked-down admin page must never see. */
export interface WatchedPage {
  page: Page;
  /** Requests to anything but the gateway (external resources). */
  foreignRequests: string[];
  /** CSP violations and uncaught errors reported by the page. */
  pageErrors: string[];
  /** State-changing admin API calls (other than the login) sent without `X-CSRF-Token`. */
  missingCsrf: string[];
}

/** Opens a page in `context` that records foreign requests, CSP violations and uncaught errors. */
export async function openWatchedPage(context: BrowserContext, origin: string): Promise<WatchedPage> {
  const page = await context.newPage();
  const watched: WatchedPage = { page, foreignRequests: [], pageErrors: [], missingCsrf: [] };
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(`${origin}/`) && !url.startsWith('data:')) watched.foreignRequests.push(url);
    const call = `${request.method()} ${url.slice(origin.length)}`;
    const changes = !['GET', 'HEAD'].includes(request.method()) && url.startsWith(`${origin}/admin/api/`);
    if (changes && call !== 'POST /admin/api/session' && !request.headers()['x-csrf-token'])
      watched.missingCsrf.push(call);
  });
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text()))
      watched.pageErrors.push(message.text());
  });
  page.on('pageerror', (error) => watched.pageErrors.push(String(error)));
  return watched;
}

/** Asserts the page loaded nothing from elsewhere, broke no CSP rule and sent every change with its CSRF token. */
export function assertCleanPage(watched: WatchedPage): void {
  assert.deepEqual(watched.foreignRequests, [], 'the admin interface loads nothing from other origins');
  assert.deepEqual(watched.pageErrors, [], 'no CSP violation or uncaught error in the page');
  assert.deepEqual(watched.missingCsrf, [], 'every state-changing call carries X-CSRF-Token');
}

/** Saves a full-page screenshot under ARTIFACTS_DIR, with `mask`ed elements painted over. */
export async function saveScreenshot(page: Page, name: string, mask: Locator[] = []): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true, mask, animations: 'disabled' });
  return path;
}

/**
 * Copies a saved screenshot over a docs one (the README's docs/admin-keys.png unless `target` says
 * otherwise), only when the run was asked to with UPDATE_README_SCREENSHOT=1
 * (`pnpm --filter @keygate/tests screenshot:readme`); true when copied.
 */
export function updateReadmeScreenshot(artifact: string, target = README_SCREENSHOT): boolean {
  if (process.env.UPDATE_README_SCREENSHOT !== '1') return false;
  copyFileSync(artifact, target);
  return true;
}
