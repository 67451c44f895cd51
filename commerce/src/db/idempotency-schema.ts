import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * Idempotency-Key records, one per (API key id, idempotency key): written in the same
 * transaction as the request's effect, so no effect is ever left without the answer a retry
 * replays. `record` is the shared JSON shape (@keygate/contracts/idempotency), so this table
 * holds no rule of its own; `expires_at` (epoch ms) is copied out for pruning.
 */
export const idempotencyRecords = sqliteTable(
  'idempotency_records',
  {
    keyId: text('key_id').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    record: text('record').notNull(),
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.keyId, t.idempotencyKey] }),
    index('idempotency_records_expires_at_idx').on(t.expiresAt),
  ],
);
