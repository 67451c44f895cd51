import type Database from 'better-sqlite3';

/**
 * Every token lookup on file, in memory, so an unknown lookup (the garbage a gateway mostly sees)
 * is refused with a set lookup, as a peer's map miss is, and never opens an SQLite read
 * transaction (its file locks and the statement cost more than the rest of such a refusal).
 *
 * It may hold a lookup that is gone (then the store is read, as before), never miss one on file:
 * this connection's commits add theirs (`add`) once they are committed, and other connections' (the
 * CLI's) are read in by `catchUp` when the store's key generation moved. Secrets are never deleted
 * by keygate, so the rows past the highest rowid read are the new ones; a row deleted by hand shows
 * as a count that disagrees, or another row at that rowid, and then everything is read again.
 */
export interface LookupIndex {
  has(lookup: string): boolean;
  /** Lookups this connection just committed. */
  add(lookups: Iterable<string>): void;
  /** Reads in the secrets other connections committed since the last reading. */
  catchUp(): void;
  readonly size: number;
}

export function createLookupIndex(client: Database.Database): LookupIndex {
  const since = client.prepare<[number], { rowid: number; lookup: string }>(
    'SELECT rowid, lookup FROM secrets WHERE rowid > ? ORDER BY rowid',
  );
  const count = client.prepare('SELECT count(*) FROM secrets').pluck();
  const lookupAt = client.prepare<[number], string>('SELECT lookup FROM secrets WHERE rowid = ?').pluck();
  let known = new Set<string>();
  // The highest rowid read, and its lookup: a new row takes a rowid above it, unless that very row
  // was deleted, and then the row at it has another lookup (or none).
  let lastRowid = 0;
  let lastLookup: string | undefined;
  const readFrom = (rowid: number) => {
    for (const row of since.iterate(rowid)) {
      known.add(row.lookup);
      lastRowid = row.rowid;
      lastLookup = row.lookup;
    }
  };
  const reload = () => {
    known = new Set<string>();
    lastRowid = 0;
    lastLookup = undefined;
    readFrom(0);
  };
  reload();
  return {
    has: (lookup) => known.has(lookup),
    add(lookups) {
      for (const lookup of lookups) known.add(lookup);
    },
    catchUp: client.transaction(() => {
      if (lastRowid !== 0 && lookupAt.get(lastRowid) !== lastLookup) return reload();
      readFrom(lastRowid);
      // Lookups are unique, so a count other than the set's means a row was deleted (or missed).
      if ((count.get() as number) !== known.size) reload();
    }),
    get size() {
      return known.size;
    },
  };
}
