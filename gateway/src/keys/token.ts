import { randomFillSync } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { Environment } from '../model/model.ts';

/**
 * Token format: `kg_<env>_<lookup>_<secret><checksum>`.
 * - `<lookup>`: 8 base62 characters, a random id of the secret, indexed in the store.
 * - `<secret>`: 22 base62 characters (≥130 random bits).
 * - `<checksum>`: 6 base62 characters, the CRC32 of everything before it, so a mistyped or
 *   truncated token is refused without touching the store, and scanners can recognise leaks.
 */
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const LOOKUP_LENGTH = 8;
export const SECRET_LENGTH = 22;
export const CHECKSUM_LENGTH = 6;
const TOKEN_PATTERN = new RegExp(
  `^kg_(live|test)_([0-9A-Za-z]{${LOOKUP_LENGTH}})_([0-9A-Za-z]{${SECRET_LENGTH}})([0-9A-Za-z]{${CHECKSUM_LENGTH}})$`,
);
export const TOKEN_LENGTH = 'kg_live_'.length + LOOKUP_LENGTH + 1 + SECRET_LENGTH + CHECKSUM_LENGTH;

/** A token whose shape and checksum are right; says nothing about whether it is known. */
export interface ParsedToken {
  environment: Environment;
  lookup: string;
  /** The displayed prefix, `kg_<env>_<lookup>`. */
  prefix: string;
}

/**
 * CSPRNG bytes fetched 4 KiB at a time (ids are made on every request: one system call per id
 * would cost more than the id); every byte is handed out once.
 */
const RANDOM_POOL = Buffer.alloc(4096);
let poolOffset = RANDOM_POOL.length;

function randomByte(): number {
  if (poolOffset === RANDOM_POOL.length) {
    randomFillSync(RANDOM_POOL);
    poolOffset = 0;
  }
  return RANDOM_POOL[poolOffset++]!;
}

/** Random base62 string; rejection sampling keeps every character uniform. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
}

/** The lowest `length` base62 digits of a non-negative integer, most significant first (zero-padded). */
function base62Digits(value: number, length: number): string {
  let rest = Math.floor(value);
  let out = '';
  for (let i = 0; i < length; i++) {
    out = BASE62[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

/** Encodes the CRC32 of `body` as 6 base62 characters. */
export function checksumOf(body: string): string {
  return base62Digits(crc32(body), CHECKSUM_LENGTH);
}

/** The displayed prefix for a lookup id. */
export function prefixOf(environment: Environment, lookup: string): string {
  return `kg_${environment}_${lookup}`;
}

/** Creates a fresh token; the caller stores only its hash and the returned lookup/prefix. */
export function generateToken(environment: Environment): { token: string; lookup: string; prefix: string } {
  const lookup = randomBase62(LOOKUP_LENGTH);
  const body = `kg_${environment}_${lookup}_${randomBase62(SECRET_LENGTH)}`;
  return { token: body + checksumOf(body), lookup, prefix: prefixOf(environment, lookup) };
}

/** Parses a token and checks its checksum; null when it is malformed. Does no I/O. */
export function parseToken(token: string): ParsedToken | null {
  if (token.length !== TOKEN_LENGTH) return null;
  const match = TOKEN_PATTERN.exec(token);
  if (!match) return null;
  const body = token.slice(0, -CHECKSUM_LENGTH);
  if (checksumOf(body) !== match[4]) return null;
  const environment = match[1] as Environment;
  const lookup = match[2]!;
  return { environment, lookup, prefix: prefixOf(environment, lookup) };
}

/**
 * Anything in a URL that looks like a keygate token (`kg_live_…` / `kg_test_…`, also with `_` sent
 * as `%5F`), wherever it appears; matched loosely so a mistyped or truncated token is caught too.
 */
const TOKEN_IN_TEXT = /kg(?:_|%5f)(live|test)(?:_|%5f)(?:[0-9A-Za-z]|_|%5f)+/gi;

/** Replaces every token-like run in `text` (a logged path or query) with `kg_<env>_[redacted]`. */
export function redactTokens(text: string): string {
  // A token holds `_` (or `%5f`): text with neither, as most paths, needs no scan.
  if (!text.includes('_') && !text.includes('%')) return text;
  return text.replace(TOKEN_IN_TEXT, (_match, environment: string) => `kg_${environment}_[redacted]`);
}

/** Prefixed random id such as `key_…`, `sec_…`, `act_…`. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBase62(20)}`;
}

/** Base62 digits of a millisecond clock: 8 of them last until the year 8888. */
const TIME_DIGITS = 8;

/**
 * A request id, `req_` and 20 base62 characters like `newId`'s, whose first 8 encode the arrival
 * millisecond and the last 12 are random (71 bits): ids sort by time, so the API log's primary key
 * and indexes grow at their right edge instead of at random places (half the insert cost, measured).
 */
export function newRequestId(nowMs: number = Date.now()): string {
  return `req_${base62Digits(nowMs, TIME_DIGITS)}${randomBase62(20 - TIME_DIGITS)}`;
}
