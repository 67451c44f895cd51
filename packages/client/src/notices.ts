import type { Middleware } from 'openapi-fetch';
import { integerParam, parseFieldList } from './structured-fields.ts';

/** An operation that answered with `Deprecation` (RFC 9745) and possibly `Sunset` (RFC 8594). */
export interface DeprecationNotice {
  kind: 'deprecation';
  /** `METHOD /path/{template}` as documented, e.g. `GET /v2/channels`. */
  operation: string;
  /** When the operation was (or will be) deprecated; null when the header gave no date. */
  deprecatedAt: Date | null;
  /** When the operation stops answering, from `Sunset`; null without one. */
  sunsetAt: Date | null;
  /** The deprecation (else sunset) policy link from `Link`, when given. */
  link: string | null;
}

/** The key used for a call expires soon (`Keygate-Key-Expires: 2026-03-31; days-left=5`). */
export interface KeyExpiryNotice {
  kind: 'key-expiry';
  /** The key's last valid day, `YYYY-MM-DD`. */
  expiresOn: string;
  /** Days left, rounded up (1 on the last day); null when the header did not say. */
  daysLeft: number | null;
}

/** Something a response told the integrator to act on. */
export type KeygateNotice = DeprecationNotice | KeyExpiryNotice;

/** The gateway's key-expiry notice header. */
export const KEY_EXPIRY_HEADER = 'Keygate-Key-Expires';

/** `Deprecation: @1767225600` (RFC 9745); also accepts an HTTP date or `?1`/`true` (no date). */
function parseDeprecationDate(raw: string): Date | null {
  const text = raw.trim();
  if (/^@-?\d+$/.test(text)) return new Date(Number(text.slice(1)) * 1000);
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : new Date(at);
}

/** The target of the first `Link` whose `rel` includes `rel`. */
export function linkWithRel(header: string | null, rel: string): string | null {
  if (!header) return null;
  for (const match of header.matchAll(/<([^>]*)>([^<]*)/g)) {
    const rels = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(match[2] ?? '');
    const names = (rels?.[1] ?? rels?.[2] ?? '').toLowerCase().split(/\s+/);
    if (names.includes(rel)) return match[1] ?? null;
  }
  return null;
}

/** The deprecation notice of a response for `operation`, or undefined when it is not deprecated. */
export function deprecationOf(response: Response, operation: string): DeprecationNotice | undefined {
  const deprecation = response.headers.get('deprecation');
  const sunset = response.headers.get('sunset');
  if (deprecation === null && sunset === null) return undefined;
  const sunsetMs = sunset === null ? Number.NaN : Date.parse(sunset);
  const links = response.headers.get('link');
  return {
    kind: 'deprecation',
    operation,
    deprecatedAt: deprecation === null ? null : parseDeprecationDate(deprecation),
    sunsetAt: Number.isNaN(sunsetMs) ? null : new Date(sunsetMs),
    link: linkWithRel(links, 'deprecation') ?? linkWithRel(links, 'sunset'),
  };
}

/** The key-expiry notice of a response, or undefined when the key is not about to expire. */
export function keyExpiryOf(response: Response): KeyExpiryNotice | undefined {
  const [item] = parseFieldList(response.headers.get(KEY_EXPIRY_HEADER));
  if (!item || !/^\d{4}-\d{2}-\d{2}$/.test(item.value)) return undefined;
  return { kind: 'key-expiry', expiresOn: item.value, daysLeft: integerParam(item, 'days-left') ?? null };
}

/**
 * Middleware that calls `onNotice` for deprecated operations and expiring keys, once per client for
 * each operation (deprecation) and each announced expiry day (key expiry), so a loop of calls does
 * not repeat the same warning.
 */
export function createNoticeMiddleware(onNotice: (notice: KeygateNotice) => void): Middleware {
  const seen = new Set<string>();
  const once = (id: string, notice: KeygateNotice | undefined) => {
    if (!notice || seen.has(id)) return;
    seen.add(id);
    onNotice(notice);
  };
  return {
    onResponse({ request, response, schemaPath }) {
      const operation = `${request.method} ${schemaPath}`;
      once(`deprecation ${operation}`, deprecationOf(response, operation));
      const expiry = keyExpiryOf(response);
      once(`key-expiry ${expiry?.expiresOn}`, expiry);
    },
  };
}
