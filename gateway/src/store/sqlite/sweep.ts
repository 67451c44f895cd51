import { and, eq, gte, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import { DAY_MS, utcDate } from '../../model/lifecycle.ts';
import type { SqliteDb } from './db.ts';
import { keys, secrets } from './schema.ts';

/**
 * The sweep candidates (see `KeyStore.listSweepCandidates`) from two indexed range reads:
 * `secrets_open_closes_idx` (partial: open secrets with an overlap end) and `keys_status_expires_idx`.
 * `expiresAt` is a day (YYYY-MM-DD, valid through its end UTC), so "end in (now, now + L days]"
 * is "today ≤ expiresAt ≤ the day of now + (L − 1) days", compared as text.
 */
export function listSweepCandidateIds(
  db: SqliteDb,
  nowMs: number,
  reminderLeadDays: readonly number[],
): string[] {
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
  return [...new Set([...closing, ...listExpiring(db, nowMs, reminderLeadDays)].map((row) => row.id))].sort();
}

/** Active keys inside the window of a lead they have no reminder for (the range comes from the index). */
function listExpiring(db: SqliteDb, nowMs: number, reminderLeadDays: readonly number[]): { id: string }[] {
  const leads = reminderLeadDays.filter((lead) => lead > 0);
  if (leads.length === 0) return [];
  const lastDayOf = (lead: number) => utcDate(nowMs + (lead - 1) * DAY_MS);
  const windows = JSON.stringify(leads.map((lead) => [lead, lastDayOf(lead)]));
  return db
    .select({ id: keys.id })
    .from(keys)
    .where(
      and(
        eq(keys.status, 'active'),
        gte(keys.expiresAt, utcDate(nowMs)),
        lte(keys.expiresAt, lastDayOf(Math.max(...leads))),
        sql`EXISTS (SELECT 1 FROM json_each(${windows}) AS w
          WHERE ${keys.expiresAt} <= json_extract(w.value, '$[1]')
          AND NOT EXISTS (SELECT 1 FROM json_each(${keys.remindersSent}) AS sent
            WHERE sent.value = json_extract(w.value, '$[0]')))`,
      ),
    )
    .all();
}
