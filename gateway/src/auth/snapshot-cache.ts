import type { ApiKey, SecretRecord } from '../model/model.ts';
import type { KeyStore } from '../store/store.ts';
import { compileIpRules, type IpRules } from './ip-rules.ts';
import { createLruCache } from './lru-cache.ts';

/** The current state of a key, cached until an event, a change marker or a version read says otherwise. */
export interface KeySnapshot {
  key: ApiKey;
  secrets: ReadonlyMap<string, SecretRecord>;
  /** The key's allowlist, compiled once per snapshot. */
  allowlist: IpRules;
}

export interface SnapshotCache {
  /** The cached snapshot of a key, else one loaded from the store (concurrent loads shared); null if there is no such key. */
  get(keyId: string): Promise<KeySnapshot | null>;
  /** The cached snapshot of a key, if there is one, without loading anything. */
  cached(keyId: string): KeySnapshot | undefined;
  /** A snapshot of at least `version` (the cached one if it is that new, else a fresh load); null version = reload. */
  atLeast(keyId: string, version: number | null): Promise<KeySnapshot | null>;
  /** Forgets one key (a load running meanwhile is not cached). */
  drop(keyId: string): void;
  /** Forgets every key. */
  dropAll(): void;
  /** Records that the store answered `version` for the key at `atMs` (epoch ms, when the read was issued). */
  confirm(keyId: string, version: number, atMs: number): void;
  /** When the store last confirmed this version of the key, or undefined. */
  confirmedAt(keyId: string, version: number): number | undefined;
}

/**
 * Per-key snapshots (key + secrets + compiled allowlist) in a bounded LRU. An epoch counter bumped
 * by every drop keeps a load that raced an invalidation out of the cache. Loads read the key before
 * its secrets (issued in that order), so a change landing between the two reads leaves an older key
 * version in the snapshot, which the next version read detects.
 */
export function createSnapshotCache(options: {
  store: Pick<KeyStore, 'getKey' | 'listSecrets'>;
  clock: () => number;
  maxEntries: number;
}): SnapshotCache {
  const { store, clock } = options;
  const snapshots = createLruCache<KeySnapshot>(options.maxEntries);
  const loading = new Map<string, Promise<KeySnapshot | null>>();
  const confirmations = createLruCache<{ version: number; atMs: number }>(options.maxEntries);
  let epoch = 0;

  const cache: SnapshotCache = {
    get(keyId) {
      const cached = snapshots.get(keyId);
      if (cached) return Promise.resolve(cached);
      let pending = loading.get(keyId);
      if (!pending) {
        pending = load(keyId).finally(() => {
          if (loading.get(keyId) === pending) loading.delete(keyId);
        });
        loading.set(keyId, pending);
      }
      return pending;
    },
    cached: (keyId) => snapshots.get(keyId),
    async atLeast(keyId, version) {
      if (version !== null) {
        const cached = snapshots.get(keyId);
        if (cached && cached.key.version >= version) return cached;
        const pending = loading.get(keyId);
        const loaded = pending ? await pending : null;
        if (loaded && loaded.key.version >= version) return loaded;
      }
      cache.drop(keyId);
      return cache.get(keyId);
    },
    drop(keyId) {
      epoch++;
      snapshots.delete(keyId);
      loading.delete(keyId);
    },
    dropAll() {
      epoch++;
      snapshots.clear();
      loading.clear();
    },
    confirm(keyId, version, atMs) {
      const known = confirmations.get(keyId);
      if (known && known.version === version && known.atMs >= atMs) return;
      confirmations.set(keyId, { version, atMs });
    },
    confirmedAt(keyId, version) {
      const known = confirmations.get(keyId);
      return known && known.version === version ? known.atMs : undefined;
    },
  };

  async function load(keyId: string): Promise<KeySnapshot | null> {
    const startedAt = epoch;
    const readAt = clock();
    const [key, secrets] = await Promise.all([store.getKey(keyId), store.listSecrets(keyId)]);
    if (!key) return null;
    const snapshot: KeySnapshot = {
      key,
      // Without the hash and tag: verification reads them from the store's row, never from a
      // snapshot, and a gateway caches a snapshot for every key in use.
      secrets: new Map(secrets.map((secret) => [secret.id, { ...secret, hash: '', tag: null }])),
      allowlist: compileIpRules(key.ipAllowlist),
    };
    cache.confirm(keyId, key.version, readAt);
    if (epoch === startedAt) snapshots.set(keyId, snapshot);
    return snapshot;
  }

  return cache;
}
