import { timingSafeEqual } from 'node:crypto';
import {
  computeSignature,
  WEBHOOK_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
} from './sign.ts';

/** Why a webhook was refused; stable codes a receiver can log or branch on. */
export type WebhookVerificationCode =
  | 'MISSING_HEADERS'
  | 'INVALID_TIMESTAMP'
  | 'TIMESTAMP_TOO_OLD'
  | 'TIMESTAMP_TOO_NEW'
  | 'NO_MATCHING_SIGNATURE'
  | 'INVALID_PAYLOAD';

/** Thrown by `verifyWebhook`; `code` says why. */
export class WebhookVerificationError extends Error {
  readonly code: WebhookVerificationCode;
  constructor(code: WebhookVerificationCode, message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
    this.code = code;
  }
}

/** Request headers as node:http (`req.headers`), a plain record or fetch's `Headers` give them. */
export type WebhookHeaders =
  | { get(name: string): string | null }
  | Readonly<Record<string, string | readonly string[] | undefined>>;

export interface VerifyWebhookOptions {
  /** How far the timestamp may be from now, either way (default 300 s, the reference libraries' value). */
  toleranceSeconds?: number;
  /** The current time (default: the system clock). */
  now?: Date | number;
}

/** A verified message: its id (dedupe on it), its timestamp and the parsed JSON body. */
export interface VerifiedWebhook {
  id: string;
  timestamp: number;
  payload: unknown;
}

export const DEFAULT_TOLERANCE_SECONDS = 300;

function readHeader(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof headers.get === 'function')
    return (headers as { get(n: string): string | null }).get(name) ?? undefined;
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return typeof value === 'string' ? value : value?.join(' ');
}

/** A v1 signature: an HMAC-SHA256 (32 bytes) as exactly 43 base64 characters plus `=`. */
const V1_SIGNATURE = /^[A-Za-z0-9+/]{43}=$/;

/** The 32 bytes of a canonically encoded v1 signature, or null (wrong length, junk, stripped padding). */
function decodeSignature(candidate: string): Buffer | null {
  if (!V1_SIGNATURE.test(candidate)) return null;
  const bytes = Buffer.from(candidate, 'base64');
  return bytes.toString('base64') === candidate ? bytes : null;
}

/** True when `candidate` (strict base64) equals `expected` (base64), compared in constant time. */
function isSameSignature(candidate: string, expected: string): boolean {
  const a = decodeSignature(candidate);
  const b = Buffer.from(expected, 'base64');
  if (a === null) return false;
  return a.length === b.length && timingSafeEqual(a, b);
}

function checkTimestamp(raw: string, options: VerifyWebhookOptions): number {
  if (!/^\d{1,12}$/.test(raw)) {
    throw new WebhookVerificationError('INVALID_TIMESTAMP', 'webhook-timestamp is not Unix seconds');
  }
  const timestamp = Number(raw);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowMs = options.now === undefined ? Date.now() : Number(options.now);
  const now = Math.floor(nowMs / 1000);
  if (timestamp < now - tolerance) {
    throw new WebhookVerificationError('TIMESTAMP_TOO_OLD', 'webhook-timestamp is too old');
  }
  if (timestamp > now + tolerance) {
    throw new WebhookVerificationError('TIMESTAMP_TOO_NEW', 'webhook-timestamp is too far in the future');
  }
  return timestamp;
}

/**
 * Verifies a Standard Webhooks 1.0 request on the receiving side: the three headers are present,
 * the timestamp is within `toleranceSeconds` of `now`, and one `v1,` signature in
 * `webhook-signature` matches one of the secrets (constant-time). Pass every secret you accept
 * while rotating. Returns the id, timestamp and parsed body; throws WebhookVerificationError.
 */
export function verifyWebhook(
  secretOrSecrets: string | readonly string[],
  headers: WebhookHeaders,
  rawBody: string | Uint8Array,
  options: VerifyWebhookOptions = {},
): VerifiedWebhook {
  const id = readHeader(headers, WEBHOOK_ID_HEADER);
  const rawTimestamp = readHeader(headers, WEBHOOK_TIMESTAMP_HEADER);
  const signatures = readHeader(headers, WEBHOOK_SIGNATURE_HEADER);
  if (!id || !rawTimestamp || !signatures) {
    throw new WebhookVerificationError(
      'MISSING_HEADERS',
      'webhook-id, -timestamp and -signature are required',
    );
  }
  const timestamp = checkTimestamp(rawTimestamp, options);
  const secrets = typeof secretOrSecrets === 'string' ? [secretOrSecrets] : secretOrSecrets;
  const candidates = signatures
    .split(' ')
    .flatMap((entry) => (entry.startsWith('v1,') ? [entry.slice(3)] : []));
  const message = { id, timestamp, body: rawBody };
  // Every secret is compared against every candidate, so the work done does not reveal which matched.
  let matched = false;
  for (const secret of secrets) {
    const expected = computeSignature(secret, message);
    for (const candidate of candidates) matched = isSameSignature(candidate, expected) || matched;
  }
  if (!matched) throw new WebhookVerificationError('NO_MATCHING_SIGNATURE', 'no signature matches');
  const text = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
  try {
    return { id, timestamp, payload: JSON.parse(text) };
  } catch {
    throw new WebhookVerificationError('INVALID_PAYLOAD', 'the body is not JSON');
  }
}
