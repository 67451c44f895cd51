import { decodeRecord, encodeRecord } from '@keygate/contracts/idempotency';
import type Database from 'better-sqlite3';
import type { IdempotencySettle } from '../../model/model.ts';
import type { IdempotencyMethods } from '../store.ts';

/** The statement reading one record (the encoded text), by API key id and idempotency-key hash. */
function prepareRecordRead(client: Database.Database): Database.Statement<[string, string], string> {
  return client
    .prepare<[string, string], string>(
      'SELECT record FROM idempotency_records WHERE key_id = ? AND key_hash = ?',
    )
    .pluck();
}

/** Writes a change's Idempotency-Key record inside the change's own (synchronous) transaction. */
export interface SqliteIdempotencySettler {
  /** True when the record is still `settle.expected`: checked before the change writes anything. */
  holds(settle: IdempotencySettle): boolean;
  /** Replaces it by `settle.next` (after `holds`, in the same transaction). */
  write(settle: IdempotencySettle): void;
}

/** The settler on this connection (its statements prepared once). */
export function createSqliteIdempotencySettler(client: Database.Database): SqliteIdempotencySettler {
  const select = prepareRecordRead(client);
  const update = client.prepare<[string, number, string, string]>(
    'UPDATE idempotency_records SET record = ?, expires_at = ? WHERE key_id = ? AND key_hash = ?',
  );
  return {
    holds: (settle) => select.get(settle.keyId, settle.keyHash) === encodeRecord(settle.expected),
    write(settle) {
      update.run(encodeRecord(settle.next), settle.next.expiresAt, settle.keyId, settle.keyHash);
    },
  };
}

/** Idempotency-Key records in SQLite: a swap is one conditional statement, so atomic by itself. */
export function createSqliteIdempotency(client: Database.Database): IdempotencyMethods {
  const select = prepareRecordRead(client);
  const insert = client.prepare<[string, string, string, number]>(
    'INSERT INTO idempotency_records (key_id, key_hash, record, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
  );
  const update = client.prepare<[string, number, string, string, string]>(
    'UPDATE idempotency_records SET record = ?, expires_at = ? WHERE key_id = ? AND key_hash = ? AND record = ?',
  );
  const remove = client.prepare<[string, string, string]>(
    'DELETE FROM idempotency_records WHERE key_id = ? AND key_hash = ? AND record = ?',
  );
  const prune = client.prepare<[number, number]>(
    'DELETE FROM idempotency_records WHERE rowid IN (SELECT rowid FROM idempotency_records WHERE expires_at <= ? LIMIT ?)',
  );
  return {
    async readIdempotency(keyId, keyHash) {
      const text = select.get(keyId, keyHash);
      return text === undefined ? null : decodeRecord(text);
    },
    async swapIdempotency(keyId, keyHash, expected, next) {
      if (expected === null) {
        if (next === null) return select.get(keyId, keyHash) === undefined;
        return insert.run(keyId, keyHash, encodeRecord(next), next.expiresAt).changes === 1;
      }
      if (next === null) return remove.run(keyId, keyHash, encodeRecord(expected)).changes === 1;
      return (
        update.run(encodeRecord(next), next.expiresAt, keyId, keyHash, encodeRecord(expected)).changes === 1
      );
    },
    async pruneIdempotency(nowMs) {
      let total = 0;
      for (;;) {
        const { changes } = prune.run(nowMs, 5_000);
        total += changes;
        if (changes < 5_000) return total;
      }
    },
  };
}
