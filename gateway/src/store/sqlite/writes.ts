import type Database from 'better-sqlite3';
import { and, eq, sql } from 'drizzle-orm';
import type { NewAlertEvent } from '../../model/alert-store.ts';
import type { KeyChange, UsageBucket } from '../../model/model.ts';
import type { SqliteDb } from './db.ts';
import type { SqliteIdempotencySettler } from './idempotency.ts';
import { activityToRow, addHistograms, keyToRow } from './rows.ts';
import { activity, creditBalances, identities, keys, plans, secrets, storeCounters } from './schema.ts';

/** The `store_counters` row every key change advances (read by the key cache's change marker). */
export const KEY_GENERATION = 'key_generation';

/** What a key change writes besides the key's own tables: its idempotency record and its alerts. */
export interface CommitCompanions {
  idempotency: SqliteIdempotencySettler;
  /** Records an alert event in the outbox inside the running transaction. */
  recordAlert(event: NewAlertEvent): void;
}

/**
 * Applies one key change in ONE synchronous transaction (BEGIN IMMEDIATE, so a concurrent writer
 * waits instead of failing mid-way), with the request's Idempotency-Key record and the change's
 * alert events: a crash leaves all of it or none. No `await` may appear inside: better-sqlite3
 * transactions are synchronous and an await would commit early. Returns false, writing nothing, on
 * a version conflict or a lost idempotency lease (every check runs before the first write).
 * Call counters and last-call times are owned by `recordUsage` and are never overwritten here.
 */
export function commitKeyChange(db: SqliteDb, change: KeyChange, companions: CommitCompanions): boolean {
  return db.transaction(
    (tx) => {
      const row = keyToRow(change.key);
      if (change.idempotency && !companions.idempotency.holds(change.idempotency)) return false;
      // A plan or identity deleted since the caller checked it is not named: the change is refused.
      if (
        row.planId !== null &&
        !tx.select({ id: plans.id }).from(plans).where(eq(plans.id, row.planId)).get()
      )
        return false;
      if (
        row.identityId !== null &&
        !tx.select({ id: identities.id }).from(identities).where(eq(identities.id, row.identityId)).get()
      )
        return false;
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
      if (change.creditsBalance && change.expectedVersion === null) {
        const { remaining, refilledAt } = change.creditsBalance;
        tx.insert(creditBalances).values({ subject: change.key.id, remaining, refilledAt }).run();
      }
      if (change.idempotency) companions.idempotency.write(change.idempotency);
      for (const event of change.alerts ?? []) companions.recordAlert(event);
      bumpKeyGeneration(tx);
      return true;
    },
    { behavior: 'immediate' },
  );
}

/** Advances the key generation (the change marker of every gateway on this file), inside the caller's transaction. */
export function bumpKeyGeneration(tx: Pick<SqliteDb, 'update'>): void {
  tx.update(storeCounters)
    .set({ value: sql`${storeCounters.value} + 1` })
    .where(eq(storeCounters.name, KEY_GENERATION))
    .run();
}

/**
 * Writes usage flushes: sums buckets into existing ones and advances call counters and last-call
 * times of secrets and keys, one flush in one transaction. Never touches a key's version: usage is
 * not a change of the key. Its five statements are prepared once: built by drizzle, each was built
 * and prepared again for every bucket of every flush, a cost a profile showed on every proxied
 * request.
 */
export function createUsageBucketWriter(
  client: Database.Database,
): (buckets: readonly UsageBucket[]) => void {
  const bucketKey = 'key_id = ? AND secret_id = ? AND minute = ?';
  const select = client.prepare<[string, string, number], BucketSums>(
    'SELECT calls, errors_4xx AS errors4xx, errors_5xx AS errors5xx, latency_ms_sum AS latencyMsSum, ' +
      `latency_histogram AS latencyHistogram, last_call_at AS lastCallAt FROM usage_buckets WHERE ${bucketKey}`,
  );
  const update = client.prepare(
    'UPDATE usage_buckets SET calls = ?, errors_4xx = ?, errors_5xx = ?, latency_ms_sum = ?, ' +
      `latency_histogram = ?, last_call_at = ? WHERE ${bucketKey}`,
  );
  const insert = client.prepare(
    'INSERT INTO usage_buckets (key_id, secret_id, minute, calls, errors_4xx, errors_5xx, latency_ms_sum, ' +
      'latency_histogram, last_call_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const countSecret = client.prepare(
    "UPDATE secrets SET call_count = call_count + ?, last_call_at = max(coalesce(last_call_at, ''), ?) WHERE id = ?",
  );
  const touchKey = client.prepare(
    "UPDATE keys SET last_call_at = max(coalesce(last_call_at, ''), ?) WHERE id = ?",
  );
  const write = client.transaction((buckets: readonly UsageBucket[]) => {
    for (const bucket of buckets) {
      const { keyId, secretId, minute } = bucket;
      const existing = select.get(keyId, secretId, minute);
      if (existing) {
        const histogram = addHistograms(JSON.parse(existing.latencyHistogram), bucket.latencyHistogram);
        update.run(
          existing.calls + bucket.calls,
          existing.errors4xx + bucket.errors4xx,
          existing.errors5xx + bucket.errors5xx,
          existing.latencyMsSum + bucket.latencyMsSum,
          JSON.stringify(histogram),
          maxIso(existing.lastCallAt, bucket.lastCallAt),
          keyId,
          secretId,
          minute,
        );
      } else {
        insert.run(
          keyId,
          secretId,
          minute,
          bucket.calls,
          bucket.errors4xx,
          bucket.errors5xx,
          bucket.latencyMsSum,
          JSON.stringify(bucket.latencyHistogram),
          bucket.lastCallAt,
        );
      }
      countSecret.run(bucket.calls, bucket.lastCallAt, secretId);
      touchKey.run(bucket.lastCallAt, keyId);
    }
  });
  return (buckets) => {
    if (buckets.length > 0) write.immediate(buckets);
  };
}

/** A stored bucket's sums, as the usage writer reads them. */
interface BucketSums {
  calls: number;
  errors4xx: number;
  errors5xx: number;
  latencyMsSum: number;
  /** JSON array of counts per latency bucket. */
  latencyHistogram: string;
  lastCallAt: string;
}

function maxIso(a: string, b: string): string {
  return a > b ? a : b;
}
