import type { Problem } from './api.ts';
import { isoDay } from './format.ts';
import type { Environment, SessionSettings } from './types.ts';

/** The create form's fields as the inputs hold them. */
export interface KeyFormValues {
  mode: 'standard' | 'agency';
  name: string;
  environment: Environment;
  scopes: string[];
  expiresAt: string;
  ipAllowlist: string;
  rateLimit: string;
}

/** The form fields by the JSON pointer of the request member they fill. */
export const KEY_FIELDS = [
  '/name',
  '/environment',
  '/scopes',
  '/expiresAt',
  '/ipAllowlist',
  '/rateLimit',
] as const;

/** Scopes an agency key starts with: read the catalogue, prices and stock. */
export const AGENCY_SCOPES = ['article:r', 'pricing:r', 'stock:r'];
/** An agency key runs out after this many days unless the form says otherwise. */
export const AGENCY_EXPIRY_DAYS = 90;
/** Calls per minute an agency key gets (or the gateway default, if lower). */
export const AGENCY_RATE_LIMIT = 120;

/** Empty values of a standard key. */
export function initialValues(): KeyFormValues {
  return {
    mode: 'standard',
    name: '',
    environment: 'live',
    scopes: [],
    expiresAt: '',
    ipAllowlist: '',
    rateLimit: '',
  };
}

/** The agency preset: limited scopes, an expiry and a rate limit; the IP allowlist is the user's to fill. */
export function agencyPreset(values: KeyFormValues, settings: SessionSettings): KeyFormValues {
  return {
    ...values,
    mode: 'agency',
    scopes: AGENCY_SCOPES.filter((scope) => settings.scopes.includes(scope)),
    expiresAt: values.expiresAt || isoDay(AGENCY_EXPIRY_DAYS),
    rateLimit: values.rateLimit || String(Math.min(AGENCY_RATE_LIMIT, settings.defaultRateLimitPerMinute)),
  };
}

/** The lines of the IP allowlist textarea, trimmed, without blanks. */
export function ipLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

/** What the agency mode requires beyond the API's own rules, as a validation problem (null when fine). */
export function checkAgency(values: KeyFormValues): Problem | null {
  if (values.mode !== 'agency') return null;
  const errors = [];
  if (!values.expiresAt)
    errors.push({ pointer: '/expiresAt', detail: 'An agency key needs an expiry date.' });
  if (ipLines(values.ipAllowlist).length === 0)
    errors.push({ pointer: '/ipAllowlist', detail: 'An agency key needs at least one IP address or range.' });
  if (values.scopes.some((scope) => scope.startsWith('auth:')))
    errors.push({ pointer: '/scopes', detail: 'An agency key cannot manage keys (no auth scopes).' });
  if (errors.length === 0) return null;
  return {
    type: 'about:blank',
    title: 'Check the agency key',
    status: 0,
    detail: 'An agency key must be limited: an expiry date, an IP allowlist, no key management.',
    errors,
  };
}

/** The POST /keys body: optional members left out when empty. */
export function toCreateRequest(values: KeyFormValues): Record<string, unknown> {
  const body: Record<string, unknown> = {
    name: values.name,
    environment: values.environment,
    scopes: values.scopes,
  };
  if (values.expiresAt) body.expiresAt = values.expiresAt;
  const ips = ipLines(values.ipAllowlist);
  if (ips.length > 0) body.ipAllowlist = ips;
  if (values.rateLimit.trim() !== '') body.rateLimit = { perMinute: Number(values.rateLimit) };
  return body;
}
