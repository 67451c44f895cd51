import { eq, lte, or, sql } from 'drizzle-orm';
import type { AdminSession, LoginFailureWindow } from '../../model/model.ts';
import type { AdminSessionMethods } from '../store.ts';
import type { SqliteDb } from './db.ts';
import { adminLoginFailures, adminSessions } from './schema.ts';

/** Admin sessions and failed-login windows in SQLite; ended rows stay until `pruneAdminSessions`. */
export function createSqliteAdminSessions(db: SqliteDb): AdminSessionMethods {
  const failures = adminLoginFailures;
  return {
    async createAdminSession(session: AdminSession) {
      db.insert(adminSessions).values(session).run();
    },
    async getAdminSession(tokenHash) {
      const row = db.select().from(adminSessions).where(eq(adminSessions.tokenHash, tokenHash)).get();
      return row ?? null;
    },
    async touchAdminSession(tokenHash, lastSeenAt, idleExpiresAt) {
      const result = db
        .update(adminSessions)
        .set({ lastSeenAt, idleExpiresAt })
        .where(eq(adminSessions.tokenHash, tokenHash))
        .run();
      return result.changes === 1;
    },
    async deleteAdminSession(tokenHash) {
      db.delete(adminSessions).where(eq(adminSessions.tokenHash, tokenHash)).run();
    },
    async pruneAdminSessions(nowMs) {
      const ended = or(lte(adminSessions.idleExpiresAt, nowMs), lte(adminSessions.expiresAt, nowMs));
      const sessions = db.delete(adminSessions).where(ended).run().changes;
      return sessions + db.delete(failures).where(lte(failures.windowEndsAt, nowMs)).run().changes;
    },
    async countLoginFailure(subject, windowMs, nowMs): Promise<LoginFailureWindow> {
      // One statement: a window that ended restarts at 1, otherwise the count grows inside it.
      const ended = sql`${failures.windowEndsAt} <= ${nowMs}`;
      const row = db
        .insert(failures)
        .values({ subject, count: 1, windowEndsAt: nowMs + windowMs })
        .onConflictDoUpdate({
          target: failures.subject,
          set: {
            count: sql`CASE WHEN ${ended} THEN 1 ELSE ${failures.count} + 1 END`,
            windowEndsAt: sql`CASE WHEN ${ended} THEN ${nowMs + windowMs} ELSE ${failures.windowEndsAt} END`,
          },
        })
        .returning()
        .get();
      return { count: row.count, resetAt: row.windowEndsAt };
    },
    async readLoginFailures(subject, nowMs) {
      const row = db.select().from(failures).where(eq(failures.subject, subject)).get();
      return row && row.windowEndsAt > nowMs ? { count: row.count, resetAt: row.windowEndsAt } : null;
    },
    async clearLoginFailures(subject) {
      db.delete(failures).where(eq(failures.subject, subject)).run();
    },
  };
}
