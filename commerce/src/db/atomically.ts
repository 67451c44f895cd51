import type { Atomically } from '../atomically.ts';
import type { CommerceDatabase } from './database.ts';

/** `Atomically` on the commerce database: BEGIN IMMEDIATE … COMMIT (a savepoint when nested). */
export function createAtomically(db: CommerceDatabase): Atomically {
  return (work) => db.sqlite.transaction(work).immediate();
}
