/**
 * Idempotency-Key (IETF draft-ietf-httpapi-idempotency-key-header), shared by the gateway's key
 * management and commerce: the header's rules, the request fingerprint, what a record holds and
 * the one decision both services take when a keyed request arrives. No storage here: each
 * service keeps records in its own store (commerce in the effect's transaction).
 */
import { createHash } from 'node:crypto';

/** The request header (lower case, as Node's `IncomingMessage.headers` names it). */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/** Sent with `true` on an answer replayed from a record. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';
/** How long a first answer is kept and replayed. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
/**
 * How long a request in flight blocks its key. A lease, not the retention: a process that died
 * mid-request must not block the key for a day, and a live request is done long before this.
 */
export const IDEMPOTENCY_LEASE_MS = 60 * 1000;
/** The longest key accepted (the draft leaves it open; Stripe's limit). */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** Headers of the first answer a replay repeats: what describes the resource, never per-request ones. */
export const REPLAYED_HEADERS: readonly string[] = [
  'content-type',
  'location',
  'etag',
  'last-modified',
  'content-language',
];

/** True for 1–255 visible ASCII characters (0x21–0x7E): no spaces, no control or non-ASCII characters. */
export function isValidIdempotencyKey(value: string): boolean {
  return value.length > 0 && value.length <= IDEMPOTENCY_KEY_MAX_LENGTH && /^[\x21-\x7e]+$/.test(value);
}

/** The `detail` of a MALFORMED_IDEMPOTENCY_KEY problem, the same from both services. */
export const MALFORMED_IDEMPOTENCY_KEY_DETAIL =
  'Idempotency-Key must be 1 to 255 visible ASCII characters (no spaces), e.g. a UUID.';

/**
 * A request's `Idempotency-Key`: null when it sent none; a malformed one (or the header sent twice)
 * throws what `malformed` makes of the detail, each service its own error class.
 */
export function readIdempotencyKey(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  malformed: (detail: string) => Error,
): string | null {
  const value = headers[IDEMPOTENCY_KEY_HEADER];
  if (value === undefined) return null;
  if (typeof value !== 'string' || !isValidIdempotencyKey(value))
    throw malformed(MALFORMED_IDEMPOTENCY_KEY_DETAIL);
  return value;
}

/**
 * The fingerprint a key is bound to: method, path with query, and the body's exact bytes. Bytes,
 * not parsed JSON, so a body that is not JSON is compared as well, and a retry (which resends
 * what it sent) always matches.
 */
export function fingerprintRequest(method: string, path: string, body: Uint8Array | string): string {
  return createHash('sha256').update(`${method.toUpperCase()} ${path}\n`).update(body).digest('base64url');
}

/** A kept answer: what a replay sends again. */
export interface StoredAnswer {
  status: number;
  /** Lower-case names, REPLAYED_HEADERS only. */
  headers: Record<string, string>;
  /** The body as sent (UTF-8 text; both services answer JSON). */
  body: string;
}

/** What is kept per (API key id, idempotency key). Times in epoch milliseconds. */
export type IdempotencyRecord =
  | { state: 'running'; fingerprint: string; leaseUntil: number; expiresAt: number }
  | { state: 'done'; fingerprint: string; answer: StoredAnswer; expiresAt: number };

/** What to do with a keyed request, given the record its key has (null: none, or expired). */
export type ClaimDecision =
  | { kind: 'run' }
  | { kind: 'replay'; answer: StoredAnswer }
  | { kind: 'reused' }
  | { kind: 'in-flight'; retryAfterSeconds: number };

/**
 * The one rule, in order: no live record → run (and hold a lease); another request under the
 * key → reused (422), whatever the record's state; a kept answer → replay; a live lease → in
 * flight (409, retry when the lease ends); a lapsed lease (its process died) → run again.
 */
export function decideClaim(
  record: IdempotencyRecord | null,
  fingerprint: string,
  now: number,
): ClaimDecision {
  if (!record || record.expiresAt <= now) return { kind: 'run' };
  if (record.fingerprint !== fingerprint) return { kind: 'reused' };
  if (record.state === 'done') return { kind: 'replay', answer: record.answer };
  if (record.leaseUntil > now) {
    return { kind: 'in-flight', retryAfterSeconds: Math.max(1, Math.ceil((record.leaseUntil - now) / 1000)) };
  }
  return { kind: 'run' };
}

/** The record a request that runs holds while it runs. */
export function runningRecord(fingerprint: string, now: number): IdempotencyRecord {
  return {
    state: 'running',
    fingerprint,
    leaseUntil: now + IDEMPOTENCY_LEASE_MS,
    expiresAt: now + IDEMPOTENCY_RETENTION_MS,
  };
}

/** The record of a finished request whose answer is kept. */
export function doneRecord(fingerprint: string, answer: StoredAnswer, now: number): IdempotencyRecord {
  return { state: 'done', fingerprint, answer, expiresAt: now + IDEMPOTENCY_RETENTION_MS };
}

/**
 * Whether an answer is kept. Not a 5xx (the retry must run again), and not a refusal of the
 * caller (401, 403, 429): nothing ran, and the same request may pass once the key or its budget
 * changes. Every other 4xx is kept: a request refused for what it says is refused the same again.
 */
export function isKeptAnswer(status: number): boolean {
  return status < 500 && status !== 401 && status !== 403 && status !== 429;
}

/** The headers of an answer a replay repeats, from a Node header map. */
export function pickReplayedHeaders(
  headers: Record<string, number | string | string[] | undefined>,
): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = headers[name];
    if (value !== undefined) picked[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return picked;
}

/** The record as JSON text (both stores keep it as one value). */
export function encodeRecord(record: IdempotencyRecord): string {
  return JSON.stringify(record);
}

/** A record from its JSON text. */
export function decodeRecord(text: string): IdempotencyRecord {
  return JSON.parse(text) as IdempotencyRecord;
}
