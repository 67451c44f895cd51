import type { Identity } from './claims.ts';

/** Key-bound assertions already verified, each kept until its expiry (epoch ms). */
export interface VerifiedAssertions {
  /** The identity of a token verified before and not expired at `nowMs`, else undefined. */
  get(token: string, nowMs: number): Identity | undefined;
  /** Keeps a verified token's identity until `expiresAtMs`. */
  set(token: string, identity: Identity, expiresAtMs: number, nowMs: number): void;
}

/**
 * A bounded LRU of verified key-bound assertions, keyed by the token itself: the whole compact JWS,
 * signature included, so only the exact bytes once verified are accepted again. Expired entries are
 * dropped when met; beyond `max`, the least recently used go first. `max` 0 keeps nothing.
 */
export function createVerifiedAssertions(max: number): VerifiedAssertions {
  const entries = new Map<string, { identity: Identity; expiresAtMs: number }>();
  return {
    get(token, nowMs) {
      const entry = entries.get(token);
      if (!entry) return undefined;
      entries.delete(token);
      if (entry.expiresAtMs <= nowMs) return undefined;
      // Moved to the end: the Map's insertion order is the recency order.
      entries.set(token, entry);
      return entry.identity;
    },
    set(token, identity, expiresAtMs, nowMs) {
      if (max <= 0 || expiresAtMs <= nowMs) return;
      entries.delete(token);
      entries.set(token, {
        identity: Object.freeze({ ...identity, scopes: [...identity.scopes] }),
        expiresAtMs,
      });
      for (const oldest of entries.keys()) {
        if (entries.size <= max) break;
        entries.delete(oldest);
      }
    },
  };
}
