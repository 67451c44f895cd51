/** A bounded least-recently-used map; entries may carry an expiry (epoch ms). */
export interface LruCache<V> {
  /** The value for `key` if present and not expired at `nowMs`; marks it recently used. */
  get(key: string, nowMs?: number): V | undefined;
  /** Stores a value, evicting the least recently used entry beyond the bound. */
  set(key: string, value: V, expiresAtMs?: number): void;
  /** Removes one entry. */
  delete(key: string): void;
  /** Removes every entry. */
  clear(): void;
  readonly size: number;
}

/**
 * Map-based LRU: a Map iterates in insertion order, so the first entry is the one evicted. A read
 * moves its entry to the end only once it has drifted into the older half (more than half the bound
 * of insertions ago): an entry read at least that often is never evicted, and the hot entries of a
 * busy gateway (read on every request) are not deleted and re-inserted on each read.
 */
export function createLruCache<V>(maxEntries: number): LruCache<V> {
  const entries = new Map<string, { value: V; expiresAt: number; insertedAt: number }>();
  /** Insertions so far (new entries and moves to the end). */
  let insertions = 0;
  const recentSpan = Math.max(1, Math.floor(maxEntries / 2));
  return {
    get(key, nowMs = 0) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expiresAt <= nowMs) {
        entries.delete(key);
        return undefined;
      }
      if (insertions - entry.insertedAt >= recentSpan) {
        entries.delete(key);
        entry.insertedAt = ++insertions;
        entries.set(key, entry);
      }
      return entry.value;
    },
    set(key, value, expiresAtMs = Number.POSITIVE_INFINITY) {
      entries.delete(key);
      entries.set(key, { value, expiresAt: expiresAtMs, insertedAt: ++insertions });
      while (entries.size > maxEntries) {
        const oldest = entries.keys().next().value;
        if (oldest === undefined) break;
        entries.delete(oldest);
      }
    },
    delete(key) {
      entries.delete(key);
    },
    clear() {
      entries.clear();
    },
    get size() {
      return entries.size;
    },
  };
}
