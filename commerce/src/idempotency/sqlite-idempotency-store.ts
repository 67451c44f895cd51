import { decodeRecord, encodeRecord } from '@keygate/contracts/idempotency';
import type { CommerceDatabase } from '../db/database.ts';
import type { IdempotencyStore } from './idempotency-store.ts';

/** IdempotencyStore on the environment's database (table idempotency_records), statements prepared once. */
export function createSqliteIdempotencyStore(db: CommerceDatabase): IdempotencyStore {
  const select = db.sqlite.prepare<[string, string], { record: string }>(
    'SELECT record FROM idempotency_records WHERE key_id = ? AND idempotency_key = ?',
  );
  const upsert = db.sqlite.prepare<[string, string, string, number]>(
    `INSERT INTO idempotency_records (key_id, idempotency_key, record, expires_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (key_id, idempotency_key) DO UPDATE SET record = excluded.record, expires_at = excluded.expires_at`,
  );
  const remove = db.sqlite.prepare<[string, string]>(
    'DELETE FROM idempotency_records WHERE key_id = ? AND idempotency_key = ?',
  );
  const prune = db.sqlite.prepare<[number, number]>(
    `DELETE FROM idempotency_records WHERE rowid IN
       (SELECT rowid FROM idempotency_records WHERE expires_at <= ? LIMIT ?)`,
  );
  return {
    read(keyId, key) {
      const row = select.get(keyId, key);
      return row ? decodeRecord(row.record) : null;
    },
    write(keyId, key, record) {
      upsert.run(keyId, key, encodeRecord(record), record.expiresAt);
    },
    remove(keyId, key) {
      remove.run(keyId, key);
    },
    pruneExpired(now, limit) {
      return prune.run(now, limit).changes;
    },
  };
}
