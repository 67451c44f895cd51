/**
 * Runs `work` in one write transaction: all of its writes happen, or none. `work` must be
 * synchronous (better-sqlite3): an await inside it would let the transaction commit half-way.
 */
export type Atomically = <T>(work: () => T) => T;
