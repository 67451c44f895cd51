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

/** Map-based LRU: a Map iterates in insertion order, so re-inserting on read keeps the oldest first. */
export function createLruCache<V>(maxEntries: number): LruCache<V> {
  const entries = new Map<string, { value: V; expiresAt: number }>();
  return {
    get(key, nowMs = 0) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      entries.delete(key);
      if (entry.expiresAt <= nowMs) return undefined;
      entries.set(key, entry);
      return entry.value;
    },
    set(key, value, expiresAtMs = Number.POSITIVE_INFINITY) {
      entries.delete(key);
      entries.set(key, { value, expiresAt: expiresAtMs });
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
