import type { Atomically } from '../atomically.ts';
import type { CommerceDatabase } from './database.ts';
import { enterUnit } from './request-unit.ts';

/**
 * `Atomically` on the commerce database: BEGIN IMMEDIATE … COMMIT (a savepoint when nested). Inside
 * a keyed request it is a savepoint of the request's unit (request-unit.ts), which commits with the
 * request's kept answer.
 */
export function createAtomically(db: CommerceDatabase): Atomically {
  return (work) => {
    enterUnit(db.sqlite);
    return db.sqlite.transaction(work).immediate();
  };
}
