import { and, eq, sql } from 'drizzle-orm';
import type { KeyChange, UsageBucket } from '../keys/model.ts';
import type { SqliteDb } from './sqlite.ts';
import { activityToRow, addHistograms, keyToRow } from './sqlite-rows.ts';
import { activity, keys, secrets, storeCounters, usageBuckets } from './sqlite-schema.ts';

/** The `store_counters` row every key change advances (read by the key cache's change marker). */
export const KEY_GENERATION = 'key_generation';

/**
 * Applies one key change in ONE synchronous transaction (BEGIN IMMEDIATE, so a concurrent writer
 * waits instead of failing mid-way). No `await` may appear inside: better-sqlite3 transactions are
 * synchronous and an await would commit early. Returns false, writing nothing, on a version conflict.
 * Call counters and last-call times are owned by `recordUsage` and are never overwritten here.
 */
export function commitKeyChange(db: SqliteDb, change: KeyChange): boolean {
  return db.transaction(
    (tx) => {
      const row = keyToRow(change.key);
      if (change.expectedVersion === null) {
        const inserted = tx.insert(keys).values(row).onConflictDoNothing().run();
        if (inserted.changes !== 1) return false;
      } else {
        const updated = tx
          .update(keys)
          .set(row)
          .where(and(eq(keys.id, change.key.id), eq(keys.version, change.expectedVersion)))
          .run();
        if (updated.changes !== 1) return false;
      }
      for (const secret of change.secrets) {
        const { callCount: _count, lastCallAt: _last, ...fields } = secret;
        tx.insert(secrets)
          .values({ ...fields, callCount: 0, lastCallAt: null })
          .onConflictDoUpdate({
            target: secrets.id,
            set: { closesAt: secret.closesAt, closedAt: secret.closedAt, closedReason: secret.closedReason },
          })
          .run();
      }
      tx.insert(activity).values(activityToRow(change.activity)).run();
      tx.update(storeCounters)
        .set({ value: sql`${storeCounters.value} + 1` })
        .where(eq(storeCounters.name, KEY_GENERATION))
        .run();
      return true;
    },
    { behavior: 'immediate' },
  );
}

/**
 * Sums buckets into existing ones and advances call counters and last-call times of secrets and
 * keys, in one transaction. Never touches a key's version: usage is not a change of the key.
 */
export function recordUsageBuckets(db: SqliteDb, buckets: UsageBucket[]): void {
  if (buckets.length === 0) return;
  db.transaction(
    (tx) => {
      for (const bucket of buckets) {
        const where = and(
          eq(usageBuckets.keyId, bucket.keyId),
          eq(usageBuckets.secretId, bucket.secretId),
          eq(usageBuckets.minute, bucket.minute),
        );
        const existing = tx.select().from(usageBuckets).where(where).get();
        if (existing) {
          tx.update(usageBuckets)
            .set({
              calls: existing.calls + bucket.calls,
              errors4xx: existing.errors4xx + bucket.errors4xx,
              errors5xx: existing.errors5xx + bucket.errors5xx,
              latencyMsSum: existing.latencyMsSum + bucket.latencyMsSum,
              latencyHistogram: addHistograms(existing.latencyHistogram, bucket.latencyHistogram),
              lastCallAt: maxIso(existing.lastCallAt, bucket.lastCallAt),
            })
            .where(where)
            .run();
        } else {
          tx.insert(usageBuckets).values(bucket).run();
        }
        tx.update(secrets)
          .set({
            callCount: sql`${secrets.callCount} + ${bucket.calls}`,
            lastCallAt: sql`max(coalesce(${secrets.lastCallAt}, ''), ${bucket.lastCallAt})`,
          })
          .where(eq(secrets.id, bucket.secretId))
          .run();
        tx.update(keys)
          .set({ lastCallAt: sql`max(coalesce(${keys.lastCallAt}, ''), ${bucket.lastCallAt})` })
          .where(eq(keys.id, bucket.keyId))
          .run();
      }
    },
    { behavior: 'immediate' },
  );
}

function maxIso(a: string, b: string): string {
  return a > b ? a : b;
}
