import type { Statement } from 'better-sqlite3';
import type { CommerceDatabase } from '../db/database.ts';

/** A finished response body, ready to send again byte for byte. */
export interface CachedResponse {
  body: Buffer;
  contentType: string;
  /** The ETag Express would have made for `body` (empty: send none). */
  etag: string;
}

/**
 * What one lookup was made under. Pass it back to `store`: an answer computed under a generation
 * that is no longer current is dropped, never served.
 */
export interface CacheGeneration {
  readonly version: string;
  /** The clock instant (ms) the generation started at: before it, the answers may not hold. */
  readonly fromMs: number;
  /** The next instant (ms) a price starts or stops being valid: from it, the answers may not hold. */
  readonly untilMs: number;
}

export interface ResponseCache {
  /** The current generation, started afresh when the data or the clock moved past the last one. */
  begin(): CacheGeneration;
  get(generation: CacheGeneration, key: string): CachedResponse | undefined;
  store(generation: CacheGeneration, key: string, response: CachedResponse): void;
  /** Entries and bytes held now (tests check the bound). */
  size(): { entries: number; bytes: number };
}

export interface ResponseCacheOptions {
  /** Bytes of bodies and keys held at most; 0 disables the cache. */
  maxBytes: number;
  /** Entries held at most. */
  maxEntries: number;
}

export const DEFAULT_RESPONSE_CACHE_MIB = 16;
export const DEFAULT_RESPONSE_CACHE_ENTRIES = 4096;

/** ISO 8601 of an instant, as price validity bounds are stored (canonical, a CHECK constraint). */
function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * A bounded cache of whole catalogue and GraphQL response bodies, valid for one "catalogue data
 * version" and one stretch of time in which no price starts or stops being valid.
 *
 * The data version is `PRAGMA data_version` and `total_changes()` of the app's connection, read
 * together by one statement before each lookup:
 * - `data_version` changes whenever another connection, in this process or another, commits to
 *   the file (SQLite's documented contract; it does not change for this connection's own commits);
 * - `total_changes()` counts every row this connection inserted, updated or deleted since it was
 *   opened (trigger rows included, rolled-back ones too), so every write the app makes itself
 *   moves it, whatever code path, table or ORM made it.
 * So any committed write that could change an answer (products, prices, VAT rates, stock,
 * customers and their tiers, channels) moves the version, and so do writes that could not
 * (carts, orders, webhooks): those only cost a recomputation. A response is computed after its
 * generation's version was read, so its data is never older than the version it is filed under;
 * if a commit lands while it is computed, the version has moved and the answer is never served.
 * Nothing is cached inside a transaction: better-sqlite3 transactions are synchronous, so no
 * request runs while this connection has uncommitted writes.
 *
 * Time matters too: a price row applies only inside [valid_from, valid_to). A generation holds
 * from the instant it started until the next bound after it (found through the two partial
 * indexes of migration 0007), and a clock that went back before its start ends it as well.
 *
 * Entries are bounded by count and by bytes (least recently used go first); a new generation
 * drops every entry of the old one.
 */
export function createResponseCache(
  db: CommerceDatabase,
  clock: () => Date,
  options: ResponseCacheOptions,
): ResponseCache {
  const versionOf: Statement<[], { dataVersion: number; changes: number }> = db.sqlite.prepare(
    'SELECT (SELECT data_version FROM pragma_data_version) AS dataVersion, total_changes() AS changes',
  );
  const nextBound: Statement<{ at: string }, { bound: string | null }> = db.sqlite.prepare(
    `SELECT min(bound) AS bound FROM (
       SELECT min(valid_from) AS bound FROM prices WHERE valid_from > @at
       UNION ALL SELECT min(valid_to) FROM prices WHERE valid_to > @at)`,
  );
  const enabled = options.maxBytes > 0 && options.maxEntries > 0;
  let entries = new Map<string, CachedResponse>();
  let bytes = 0;
  let current: CacheGeneration = { version: '', fromMs: Number.POSITIVE_INFINITY, untilMs: 0 };

  const sizeOf = (key: string, response: CachedResponse) =>
    key.length * 2 + response.body.length + response.etag.length * 2 + 64;

  function drop(key: string, response: CachedResponse): void {
    entries.delete(key);
    bytes -= sizeOf(key, response);
  }

  return {
    begin() {
      if (!enabled) return current;
      const nowMs = clock().getTime();
      const row = versionOf.get();
      const version = row ? `${row.dataVersion}:${row.changes}` : '';
      if (version === current.version && nowMs >= current.fromMs && nowMs < current.untilMs) return current;
      const bound = nextBound.get({ at: iso(nowMs) })?.bound ?? null;
      current = {
        version,
        fromMs: nowMs,
        untilMs: bound === null ? Number.POSITIVE_INFINITY : Date.parse(bound),
      };
      entries = new Map();
      bytes = 0;
      return current;
    },
    get(generation, key) {
      if (!enabled || generation !== current) return undefined;
      const hit = entries.get(key);
      if (hit) {
        // Re-inserted: the Map's insertion order is the recency order.
        entries.delete(key);
        entries.set(key, hit);
      }
      return hit;
    },
    store(generation, key, response) {
      if (!enabled || generation !== current) return;
      const size = sizeOf(key, response);
      if (size > options.maxBytes) return;
      const known = entries.get(key);
      if (known) drop(key, known);
      entries.set(key, response);
      bytes += size;
      for (const [oldKey, old] of entries) {
        if (bytes <= options.maxBytes && entries.size <= options.maxEntries) break;
        drop(oldKey, old);
      }
    },
    size: () => ({ entries: entries.size, bytes }),
  };
}
