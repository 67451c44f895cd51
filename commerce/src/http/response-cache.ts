import type { Statement } from 'better-sqlite3';
import { installChangeLog } from '../db/change-log.ts';
import type { CommerceDatabase } from '../db/database.ts';

/** A finished response body, ready to send again byte for byte. */
export interface CachedResponse {
  body: Buffer;
  contentType: string;
  /** The ETag Express would have made for `body` (empty: send none). */
  etag: string;
  /** Further headers sent with it (GraphQL: the query's cost). */
  headers?: Readonly<Record<string, string>>;
}

/**
 * What one lookup was made under. Pass it back to `store`: an answer computed under a generation
 * that is no longer current (a write or the clock moved on since) is dropped, never served.
 */
export interface CacheGeneration {
  readonly version: string;
  /** The clock instant (ms) the generation started at: before it, the answers may not hold. */
  readonly fromMs: number;
  /** The next instant (ms) a price starts or stops being valid: from it, the answers may not hold. */
  readonly untilMs: number;
}

export interface ResponseCache {
  /**
   * The current generation, after dropping what the writes since the last call changed (a new
   * generation whenever anything was written or the clock left the last one's stretch).
   */
  begin(): CacheGeneration;
  get(generation: CacheGeneration, key: string): CachedResponse | undefined;
  /**
   * Keeps `response` until a write logs one of `dependsOn` (tags of src/db/change-log.ts: every
   * row and table the answer read), another connection writes the file, or the clock moves on.
   */
  store(
    generation: CacheGeneration,
    key: string,
    response: CachedResponse,
    dependsOn: Iterable<string>,
  ): void;
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

/**
 * A bounded cache of whole catalogue and GraphQL response bodies. Each answer is filed under the
 * tags of what it read (src/db/change-log.ts) and under one stretch of time in which no price starts
 * or stops being valid; a write drops only the answers filed under a tag it logged, so cart, order
 * and webhook writes drop nothing and a stock change drops only the answers that show that stock.
 *
 * Before each lookup one statement reads `PRAGMA data_version` and `total_changes()` of the app's
 * connection:
 * - `total_changes()` counts every row this connection inserted, updated or deleted since it was
 *   opened (trigger rows included, rolled-back ones too), so every write the app makes itself
 *   moves it, whatever code path or ORM made it. When it moved, the change log (this connection's
 *   TEMP triggers, written in the same transaction as the write) says which tags to drop.
 * - `data_version` changes whenever another connection, in this process or another, commits to the
 *   file (SQLite's documented contract; not for this connection's own commits). Which rows such a
 *   write touched is not known here (the seed CLI, a sandbox reset from another process, a
 *   hand-made fix), so every entry goes.
 * A response is computed after its generation began, so its data is never older than the writes
 * drained by then; a write committed while it is computed (GraphQL awaits) is drained by the next
 * `begin`, which drops it with the rest if it read what the write changed, or, if that `begin`
 * came first, makes its generation stale so it is never stored. Nothing is cached inside a
 * transaction: better-sqlite3 transactions are synchronous, so no request runs while this
 * connection has uncommitted writes.
 *
 * Time matters too: a price row applies only inside [valid_from, valid_to). A generation holds
 * from the instant it started until the next bound after it (found through the two partial
 * indexes of migration 0007), and a clock that went back before its start ends it as well: then
 * every entry goes. A logged change starts a new stretch at the current instant (its price rows
 * may have moved the next bound), keeping the entries it did not drop.
 *
 * Entries are bounded by count and by bytes (least recently used go first).
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
  const changeLog = enabled ? installChangeLog(db) : null;
  const entries = new Map<string, { response: CachedResponse; tags: string[]; size: number }>();
  /** Tag → the keys of the entries filed under it. */
  const byTag = new Map<string, Set<string>>();
  let bytes = 0;
  let current: CacheGeneration = { version: '', fromMs: Number.POSITIVE_INFINITY, untilMs: 0 };
  let seen: { dataVersion: number; changes: number } | null = null;

  function drop(key: string): void {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.size;
    for (const tag of entry.tags) {
      const keys = byTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) byTag.delete(tag);
    }
  }

  function dropAll(): void {
    entries.clear();
    byTag.clear();
    bytes = 0;
  }

  function untilAfter(nowMs: number): number {
    const bound = nextBound.get({ at: new Date(nowMs).toISOString() })?.bound ?? null;
    return bound === null ? Number.POSITIVE_INFINITY : Date.parse(bound);
  }

  return {
    begin() {
      if (!enabled || !changeLog) return current;
      const nowMs = clock().getTime();
      let row = versionOf.get() ?? { dataVersion: 0, changes: 0 };
      const inStretch = nowMs >= current.fromMs && nowMs < current.untilMs;
      if (inStretch && seen?.dataVersion === row.dataVersion && seen.changes === row.changes) return current;
      const isForeign = seen?.dataVersion !== row.dataVersion;
      const touched = isForeign || seen?.changes !== row.changes ? changeLog.drain() : [];
      if (isForeign || !inStretch) dropAll();
      else for (const tag of touched) for (const key of [...(byTag.get(tag) ?? [])]) drop(key);
      // The drain deleted rows of the log: the count moved again.
      if (touched.length > 0) row = versionOf.get() ?? row;
      seen = row;
      const restart = isForeign || !inStretch || touched.length > 0;
      current = {
        version: `${row.dataVersion}:${row.changes}`,
        fromMs: restart ? nowMs : current.fromMs,
        untilMs: restart ? untilAfter(nowMs) : current.untilMs,
      };
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
      return hit?.response;
    },
    store(generation, key, response, dependsOn) {
      if (!enabled || generation !== current) return;
      const tags = [...new Set(dependsOn)];
      const size =
        key.length * 2 +
        response.body.length +
        response.etag.length * 2 +
        64 +
        tags.reduce((sum, tag) => sum + tag.length * 2 + 32, 0);
      if (size > options.maxBytes) return;
      drop(key);
      entries.set(key, { response, tags, size });
      bytes += size;
      for (const tag of tags) {
        const keys = byTag.get(tag);
        if (keys) keys.add(key);
        else byTag.set(tag, new Set([key]));
      }
      for (const oldKey of entries.keys()) {
        if (bytes <= options.maxBytes && entries.size <= options.maxEntries) break;
        drop(oldKey);
      }
    },
    size: () => ({ entries: entries.size, bytes }),
  };
}
