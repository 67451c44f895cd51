import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { freePort, ROOT, type Service, startService } from './processes.ts';
import type { System } from './system.ts';

/** The storefront package, its `next build` output and the Next.js CLI that serves it. */
export const STOREFRONT_DIR = join(ROOT, 'packages/storefront');
export const STOREFRONT_BUILD = join(STOREFRONT_DIR, '.next');
const NEXT_BIN = 'packages/storefront/node_modules/next/dist/bin/next';
/** Screenshots of every storefront page (gitignored). */
export const STOREFRONT_ARTIFACTS = join(ROOT, 'tests/artifacts/storefront');
/** The screenshot docs/storefront.md shows. */
export const STOREFRONT_DOC_SCREENSHOT = join(ROOT, 'docs/storefront.png');
/** The scopes `pnpm start:storefront` gives the key it creates: the least the shop needs. */
export const STOREFRONT_SCOPES = ['article:r', 'order:rw', 'stock:r', 'pricing:r'];

/** Throws unless `pnpm build:storefront` ran (the tests serve the production build). */
export function assertStorefrontBuilt(): void {
  if (!existsSync(join(STOREFRONT_BUILD, 'BUILD_ID'))) {
    throw new Error(`the storefront is not built (${STOREFRONT_BUILD}): run pnpm build:storefront first`);
  }
}

/** Every file under a directory, recursively. */
export function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

/**
 * True when `next build` ran after the last change to the shop's sources (its pages, components and
 * config): a build older than them would serve, and measure, the shop as it was.
 */
export function isStorefrontBuildCurrent(): boolean {
  const buildId = join(STOREFRONT_BUILD, 'BUILD_ID');
  if (!existsSync(buildId)) return false;
  const sources = [
    ...listFiles(join(STOREFRONT_DIR, 'app')),
    ...listFiles(join(STOREFRONT_DIR, 'src')),
    ...['next.config.ts', 'proxy.ts', 'package.json'].map((name) => join(STOREFRONT_DIR, name)),
  ];
  const builtAt = statSync(buildId).mtimeMs;
  return sources.every((path) => statSync(path).mtimeMs <= builtAt);
}

/** The files of the build that browsers download (`/_next/static/…`), with their text. */
export function readClientBundle(): Array<{ path: string; text: string }> {
  return listFiles(join(STOREFRONT_BUILD, 'static')).map((path) => ({
    path,
    text: readFileSync(path, 'utf8'),
  }));
}

/** Registers a webhook endpoint for `url` in the test environment; returns its id and secret. */
export async function registerWebhook(
  system: System,
  adminSecret: string,
  url: string,
): Promise<{ id: string; secret: string }> {
  const res = await system.call(adminSecret, '/v2/webhooks/endpoints', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      url,
      description: 'storefront cache',
      // No filter: every event type reaches the receiver, which decides which ones expire the cache.
    }),
  });
  const body = (await res.json()) as { id: string; secret: string };
  if (res.status !== 201)
    throw new Error(`webhook endpoint not created: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** `next start` of the built storefront on a free port against the system's gateway. */
export async function startStorefront(options: {
  system: System;
  port?: number;
  env: Record<string, string>;
}): Promise<Service> {
  assertStorefrontBuilt();
  const port = options.port ?? (await freePort());
  return startService({
    name: 'storefront',
    script: NEXT_BIN,
    args: ['start', 'packages/storefront', '--port', String(port), '--hostname', '127.0.0.1'],
    port,
    readyPath: '/healthz',
    env: {
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
      KEYGATE_BASE_URL: options.system.gateway.url,
      ...options.env,
    },
  });
}

/** Saves a full-page screenshot under tests/artifacts/storefront/. */
export async function saveStorefrontScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(STOREFRONT_ARTIFACTS, { recursive: true });
  const path = join(STOREFRONT_ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true, animations: 'disabled' });
  return path;
}
