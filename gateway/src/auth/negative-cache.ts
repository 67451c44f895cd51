import type { RefusedKey } from '../errors.ts';
import { createLruCache } from './lru-cache.ts';

/** Marks a lookup entry; fingerprints are base64url and never contain it. */
const LOOKUP = '#';

/**
 * Refusals remembered per instance, so a repeated garbage token costs a hash and a map lookup:
 * an unknown lookup (any token with it is refused, whatever its secret) and a token refused on a
 * real lookup (by fingerprint: a lookup names one secret for good, so a wrong token stays wrong).
 *
 * It must never keep out a key created or rotated after its lookup was refused: key events forget
 * the lookups of the secrets a change wrote (`forgetLookups`), and every forget or clear starts a
 * new epoch, so a lookup read that began before it (`epoch()` taken first) is not remembered when
 * it answers "unknown" late.
 */
export interface NegativeCache {
  /** True while the lookup, or this very token, is remembered as refused at `nowMs`. */
  has(fingerprint: string, lookup: string, nowMs: number): boolean;
  /** As `has`, with the real key a refused token was for when it was remembered with one. */
  find(fingerprint: string, lookup: string, nowMs: number): RefusedKey | boolean;
  /** The current epoch: take it before reading the store, pass it to `remember…`. */
  epoch(): number;
  /** Remembers an unknown lookup, unless an event moved the epoch since `since`. */
  rememberLookup(lookup: string, nowMs: number, since: number): void;
  /**
   * Remembers a refused token by fingerprint (with the real key of its lookup, if any), unless an
   * event moved the epoch since `since`.
   */
  rememberToken(fingerprint: string, nowMs: number, since: number, key?: RefusedKey): void;
  /** Forgets what is remembered for these lookups (their secrets were just written). */
  forgetLookups(lookups: readonly string[]): void;
  /** Forgets everything (events may have been lost, or another process changed keys). */
  clear(): void;
  /** Entries held now (expired ones included until they are evicted or read); at most `maxEntries`. */
  readonly size: number;
}

export interface NegativeCacheOptions {
  /** Entries at most; the least recently used goes beyond it. */
  maxEntries: number;
  /** How long a refusal is remembered (ms). */
  ttlMs: number;
}

/** A bounded, expiring negative cache (see NegativeCache). */
export function createNegativeCache(options: NegativeCacheOptions): NegativeCache {
  const entries = createLruCache<RefusedKey | true>(options.maxEntries);
  let epoch = 0;
  const remember = (name: string, nowMs: number, since: number, value: RefusedKey | true) => {
    if (since === epoch) entries.set(name, value, nowMs + options.ttlMs);
  };
  const find = (fingerprint: string, lookup: string, nowMs: number): RefusedKey | boolean =>
    entries.get(LOOKUP + lookup, nowMs) === true || (entries.get(fingerprint, nowMs) ?? false);
  return {
    has: (fingerprint, lookup, nowMs) => find(fingerprint, lookup, nowMs) !== false,
    find,
    epoch: () => epoch,
    rememberLookup: (lookup, nowMs, since) => remember(LOOKUP + lookup, nowMs, since, true),
    rememberToken: (fingerprint, nowMs, since, key) => remember(fingerprint, nowMs, since, key ?? true),
    forgetLookups(lookups) {
      epoch++;
      for (const lookup of lookups) entries.delete(LOOKUP + lookup);
    },
    clear() {
      epoch++;
      entries.clear();
    },
    get size() {
      return entries.size;
    },
  };
}
