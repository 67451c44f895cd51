import type { IdempotencyRecord } from '@keygate/contracts/idempotency';

/**
 * Where commerce keeps Idempotency-Key records, per (API key id, idempotency key). Synchronous,
 * so a write can join the effect's transaction.
 */
export interface IdempotencyStore {
  /** The record of the pair, expired or not; null when there is none. */
  read(keyId: string, key: string): IdempotencyRecord | null;
  /** Writes the pair's record, replacing any. */
  write(keyId: string, key: string, record: IdempotencyRecord): void;
  /** Deletes the pair's record (an answer that is not kept). */
  remove(keyId: string, key: string): void;
  /** Deletes at most `limit` records expired at `now` (epoch ms); returns how many went. */
  pruneExpired(now: number, limit: number): number;
}
