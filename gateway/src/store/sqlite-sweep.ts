import { and, eq, gte, isNotNull, isNull, lte } from 'drizzle-orm';
import { DAY_MS, utcDate } from '../keys/lifecycle.ts';
import type { SqliteDb } from './sqlite.ts';
import { keys, secrets } from './sqlite-schema.ts';

/**
 * The sweep candidates (see `KeyStore.listSweepCandidates`) from two indexed range reads:
 * `secrets_open_closes_idx` (partial: open secrets with an overlap end) and `keys_status_expires_idx`.
 * `expiresAt` is a day (YYYY-MM-DD, valid through its end UTC), so "end in (now, now + lead days]"
 * is "today ≤ expiresAt ≤ the day of now + (lead − 1) days", compared as text.
 */
export function listSweepCandidateIds(db: SqliteDb, nowMs: number, reminderLeadDays: number): string[] {
  const closing = db
    .selectDistinct({ id: secrets.keyId })
    .from(secrets)
    .where(
      and(
        isNull(secrets.closedAt),
        isNotNull(secrets.closesAt),
        lte(secrets.closesAt, new Date(nowMs).toISOString()),
      ),
    )
    .all();
  const expiring =
    reminderLeadDays > 0
      ? db
          .select({ id: keys.id })
          .from(keys)
          .where(
            and(
              eq(keys.status, 'active'),
              gte(keys.expiresAt, utcDate(nowMs)),
              lte(keys.expiresAt, utcDate(nowMs + (reminderLeadDays - 1) * DAY_MS)),
            ),
          )
          .all()
      : [];
  return [...new Set([...closing, ...expiring].map((row) => row.id))].sort();
}
