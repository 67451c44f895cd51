import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Page } from 'playwright-core';
import type { System } from './system.ts';

/** The security headers every answer of the shop carries (next.config.ts). */
export const FIXED_HEADERS = {
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-content-type-options': 'nosniff',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
  'x-frame-options': 'DENY',
};

/** The directives of a Content-Security-Policy by name, each with its sources. */
export function parseCsp(header: string | null): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of (header ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) directives.set(name.toLowerCase(), sources);
  }
  return directives;
}

/** The nonce of a CSP's script-src, or null. */
export function nonceOf(csp: Map<string, string[]>): string | null {
  const source = csp.get('script-src')?.find((s) => s.startsWith("'nonce-"));
  return source ? source.slice("'nonce-".length, -1) : null;
}

/**
 * Renames a product in commerce test's database. Commerce has no API that writes product names,
 * so the test writes the real SQLite file (WAL, as commerce opens it) before anything reads the
 * product; the name then reaches the shop through the API like any other.
 */
export function renameProduct(system: System, sku: string, name: string): void {
  const db = new DatabaseSync(join(system.dataDir, 'commerce-test.db'));
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    const changed = db.prepare('UPDATE products SET name = ? WHERE sku = ?').run(name, sku).changes;
    if (changed !== 1) throw new Error(`no product ${sku} to rename`);
  } finally {
    db.close();
  }
}

/** Every SKU of a channel's catalogue, paged through the API as an integrator would. */
export async function allSkus(system: System, secret: string, channel: string): Promise<string[]> {
  const skus: string[] = [];
  let cursor: string | null = null;
  do {
    const query: string = new URLSearchParams({ limit: '100', ...(cursor ? { cursor } : {}) }).toString();
    const res = await system.call(secret, `/v2/catalog/products?${query}`, {
      headers: { 'X-Channel': channel },
    });
    if (res.status !== 200) throw new Error(`catalogue page answered ${res.status}`);
    const page = (await res.json()) as { data: Array<{ sku: string }>; nextCursor: string | null };
    skus.push(...page.data.map((p) => p.sku));
    cursor = page.nextCursor;
  } while (cursor);
  return skus;
}

/** Parses XML in the browser (DOMParser) and returns the text of every `<loc>`; throws on bad XML. */
export async function xmlLocs(page: Page, xml: string, root: string): Promise<string[]> {
  return page.evaluate(
    ({ xml, root }) => {
      const doc = new DOMParser().parseFromString(xml, 'application/xml');
      const error = doc.querySelector('parsererror');
      if (error) throw new Error(`not XML: ${error.textContent}`);
      if (doc.documentElement.localName !== root) throw new Error(`root is ${doc.documentElement.localName}`);
      return Array.from(doc.getElementsByTagName('loc')).map((loc) => loc.textContent ?? '');
    },
    { xml, root },
  );
}

/** The parsed JSON-LD blocks of the page. */
export async function jsonLdOf(page: Page): Promise<Array<Record<string, unknown>>> {
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  return blocks.map((text) => JSON.parse(text) as Record<string, unknown>);
}
