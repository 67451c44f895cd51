import { AsyncLocalStorage } from 'node:async_hooks';
import type Database from 'better-sqlite3';

/**
 * One keyed request's unit of work (see idempotency/honour-idempotency-key.ts): every write it makes,
 * and the answer kept for its Idempotency-Key, commit in one transaction. The unit's transaction is
 * open while the request's synchronous code runs; a handler that awaits before writing reopens it at
 * its first `atomically` (every write of such a handler goes through one), and the answer ends it.
 */
export interface RequestUnit {
  readonly sqlite: Database.Database;
  /** Its transaction is open on the connection. */
  isOpen: boolean;
  /** Answered: writes from now on get their own transactions. */
  isFinished: boolean;
}

const scope = new AsyncLocalStorage<RequestUnit>();
/** The unit whose transaction is open, per connection (one at a time: SQLite has one writer). */
const openUnits = new WeakMap<Database.Database, RequestUnit>();

/** Runs `fn`, and everything it schedules, inside `unit`. */
export function runInUnit<T>(unit: RequestUnit, fn: () => T): T {
  return scope.run(unit, fn);
}

/** Opens the unit's transaction. */
export function openUnit(unit: RequestUnit): void {
  settleStranger(unit.sqlite, unit);
  unit.sqlite.exec('BEGIN IMMEDIATE');
  unit.isOpen = true;
  openUnits.set(unit.sqlite, unit);
}

/** Ends the unit's transaction, if open: COMMIT keeps its writes, ROLLBACK undoes them. */
export function closeUnit(unit: RequestUnit, how: 'COMMIT' | 'ROLLBACK'): void {
  if (!unit.isOpen) return;
  unit.isOpen = false;
  openUnits.delete(unit.sqlite);
  if (unit.sqlite.inTransaction) unit.sqlite.exec(how);
}

/**
 * Commits another request's unit still open on this connection. Only a handler that awaited other
 * work between its write and its answer leaves one open across a turn of the event loop; its
 * writes are then kept without waiting for its answer (whose record follows on its own), and this
 * request's work is not mixed into that transaction.
 */
function settleStranger(sqlite: Database.Database, current: RequestUnit | undefined): void {
  const open = openUnits.get(sqlite);
  if (open && open !== current) closeUnit(open, 'COMMIT');
}

/** Called before every write transaction on `sqlite` (createAtomically): joins or reopens the current request's unit. */
export function enterUnit(sqlite: Database.Database): void {
  const current = scope.getStore();
  settleStranger(sqlite, current);
  if (current?.sqlite === sqlite && !current.isOpen && !current.isFinished && !sqlite.inTransaction) {
    openUnit(current);
  }
}
