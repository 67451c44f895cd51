import type Database from 'better-sqlite3';

// Retention pruning of the SQLite file's per-call tables. A gateway on a file runs these in its
// log-writer thread (see log-writer.ts), on that thread's own connection: an hour of lines or
// buckets past their retention is a large delete, and on the event loop it stopped every request
// for as long.

/**
 * Lines a prune deletes per statement (each its own transaction): one hour of a busy gateway's log
 * is millions of lines, and one DELETE for all of them would hold the file's write lock (key
 * changes, usage) and its thread for as long.
 */
export const PRUNE_ROWS_PER_TRANSACTION = 5_000;

/** Deletes the API-log lines older than `before` (ISO), a chunk at a time; returns how many went. */
export function createLogPruner(client: Database.Database): (before: string) => number {
  const deleteChunk = client.prepare(
    'DELETE FROM api_logs WHERE rowid IN (SELECT rowid FROM api_logs WHERE at < ? LIMIT ?)',
  );
  return (before) => {
    let total = 0;
    for (;;) {
      const { changes } = deleteChunk.run(before, PRUNE_ROWS_PER_TRANSACTION);
      total += changes;
      if (changes < PRUNE_ROWS_PER_TRANSACTION) return total;
    }
  };
}

/** Keys whose usage buckets one transaction prunes. */
export const PRUNE_KEYS_PER_TRANSACTION = 500;

/**
 * Deletes the usage buckets whose minute starts before `beforeMs`, key by key through the
 * (key, minute) index, PRUNE_KEYS_PER_TRANSACTION keys to a transaction; returns how many went. The
 * table has no index on the minute alone, so one DELETE for all keys read every bucket of the
 * retention (31 days of every active secret's minutes).
 */
export function createUsagePruner(client: Database.Database): (beforeMs: number) => number {
  const nextKey = client
    .prepare('SELECT key_id FROM usage_buckets WHERE key_id > ? ORDER BY key_id LIMIT 1')
    .pluck();
  const deleteOfKey = client.prepare('DELETE FROM usage_buckets WHERE key_id = ? AND minute < ?');
  /** Prunes up to PRUNE_KEYS_PER_TRANSACTION keys after `after`; the last key it saw, or null at the end. */
  const pruneKeys = client.transaction((after: string, beforeMs: number, counted: { total: number }) => {
    let key = after;
    for (let i = 0; i < PRUNE_KEYS_PER_TRANSACTION; i++) {
      const next = nextKey.get(key) as string | undefined;
      if (next === undefined) return null;
      counted.total += deleteOfKey.run(next, beforeMs).changes;
      key = next;
    }
    return key;
  });
  return (beforeMs) => {
    const counted = { total: 0 };
    let after: string | null = '';
    while (after !== null) after = pruneKeys(after, beforeMs, counted);
    return counted.total;
  };
}
