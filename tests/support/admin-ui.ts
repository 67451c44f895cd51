import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import {
  assertCleanPage,
  assertUiBuilt,
  launchChromium,
  openWatchedPage,
  type WatchedPage,
} from './browser.ts';
import { type System, startSystem } from './system.ts';
import { waitUntil } from './traffic.ts';

export const ADMIN_EMAIL = 'admin@keygate.test';
export const ADMIN_PASSWORD = 'correct horse battery staple';

/** A locator's text content ('' for none). */
export async function text(locator: Locator): Promise<string> {
  return (await locator.textContent()) ?? '';
}

/** The displayed prefix of a token: `kg_<env>_<lookup>`. */
export function prefixOf(token: string): string {
  return token.split('_').slice(0, 3).join('_');
}

/** Today (UTC) plus `offsetDays`, as YYYY-MM-DD. */
export function isoDay(offsetDays: number): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Waits until `check` stops throwing (its assertions pass), retrying every 250 ms for up to 15 s:
 * usage reaches the store on a flush interval, not per request.
 */
export function settle(what: string, check: () => Promise<void>): Promise<void> {
  return waitUntil(
    what,
    async () => {
      await check();
      return true;
    },
    { retryErrors: true, intervalMs: 250 },
  );
}

/** How `useAdminUi` sets its system up. */
export interface AdminUiOptions {
  /** Runs once after start (e.g. to create keys with the CLI). */
  seed?: (system: System) => Promise<void>;
  /** Extra gateway environment (e.g. a low KEYGATE_ADMIN_LOGIN_MAX_FAILURES). */
  gatewayEnv?: Record<string, string>;
}

/** The running system, the browser and this test's context, with helpers for the admin pages. */
export interface AdminUi {
  readonly system: System;
  readonly context: BrowserContext;
  /** fetch() of `/admin/api<path>` on the gateway, from Node (no browser). */
  adminApi: (path: string, init?: RequestInit) => Promise<Response>;
  /** `keygate_admin=…` of the browser's session, for requests made from Node. */
  sessionCookie: () => Promise<string>;
  /** A new page in this test's context, watched for foreign requests and CSP violations. */
  newPage: () => Promise<Page>;
  /** A page on the keys list, its first load answered, logged in through the form when the context has no session yet. */
  loggedInPage: () => Promise<Page>;
  /** Asserts no page of this test loaded a foreign resource or broke the CSP. */
  assertCleanPages: () => void;
}

/**
 * Registers mocha hooks in the calling describe(): one system (gateway serving the built UI,
 * commerce, an administrator made with the CLI), headless chromium, and a fresh browser context
 * per test.
 */
export function useAdminUi(options: AdminUiOptions = {}): AdminUi {
  let system: System | undefined;
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let watched: WatchedPage[] = [];

  before(async () => {
    assertUiBuilt();
    browser = await launchChromium();
    system = await startSystem({ gatewayEnv: { KEYGATE_USAGE_FLUSH_MS: '200', ...options.gatewayEnv } });
    const created = await system.keygate(
      'admin',
      'create-user',
      '--email',
      ADMIN_EMAIL,
      '--password',
      ADMIN_PASSWORD,
    );
    assert.equal(created.code, 0, created.stderr);
    await options.seed?.(system);
  });
  beforeEach(async () => {
    context = await browser!.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: system!.gateway.url });
    watched = [];
  });
  afterEach(async () => {
    await context?.close();
  });
  after(async () => {
    await browser?.close();
    await system?.stop();
  });

  const ui: AdminUi = {
    get system() {
      return system!;
    },
    get context() {
      return context!;
    },
    adminApi: (path, init = {}) => fetch(`${system!.gateway.url}/admin/api${path}`, init),
    async sessionCookie() {
      const cookies = await context!.cookies(`${system!.gateway.url}/admin/api`);
      const cookie = cookies.find((c) => c.name === 'keygate_admin');
      assert.ok(cookie, 'the browser holds the admin session cookie');
      return `${cookie.name}=${cookie.value}`;
    },
    async newPage() {
      const page = await openWatchedPage(context!, system!.gateway.url);
      watched.push(page);
      return page.page;
    },
    async loggedInPage() {
      const page = await ui.newPage();
      await page.goto(`${system!.gateway.url}/admin/`);
      const login = page.getByRole('heading', { name: 'Log in' });
      const keys = page.getByRole('heading', { name: 'API keys' });
      await login.or(keys).waitFor();
      if (await login.isVisible()) {
        await page.getByLabel('Email').fill(ADMIN_EMAIL);
        await page.getByLabel('Password').fill(ADMIN_PASSWORD);
        await page.getByRole('button', { name: 'Log in' }).click();
        await keys.waitFor();
      }
      // The heading shows before the key list's first GET answers. Wait for that answer, so a
      // test that then ends the session on the server does not race the page's own request.
      await page.getByText(/^\d+ keys?$/).waitFor();
      return page;
    },
    assertCleanPages: () => {
      for (const page of watched) assertCleanPage(page);
    },
  };
  return ui;
}
