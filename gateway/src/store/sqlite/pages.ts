import { and, desc, eq, gte, lt, or } from 'drizzle-orm';
import type { ActivityEntry, ApiLogEntry } from '../../model/model.ts';
import { decodeCursor, encodeCursor, pageSizeOf } from '../cursor.ts';
import type { ActivityFilter, LogFilter, Page } from '../store.ts';
import type { SqliteDb } from './db.ts';
import { activityFromRow, logFromRow } from './rows.ts';
import { activity, apiLogs } from './schema.ts';

/** Rows strictly after the cursor position in newest-first (at, id) order. */
function afterCursor(table: typeof activity | typeof apiLogs, cursor: string | undefined) {
  if (!cursor) return undefined;
  const position = decodeCursor(cursor);
  return or(lt(table.at, position.at), and(eq(table.at, position.at), lt(table.id, position.id)));
}

/** A page from rows fetched with `limit + 1`: the extra row only says that more follow. */
function toPage<R extends { at: string; id: string }, T>(
  rows: R[],
  limit: number,
  map: (row: R) => T,
): Page<T> {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items: items.map(map), nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}

/** Activity matching the filter, newest first, keyset-paginated over (at, id). */
export function queryActivityPage(db: SqliteDb, filter: ActivityFilter): Page<ActivityEntry> {
  const limit = pageSizeOf(filter.limit);
  const rows = db
    .select()
    .from(activity)
    .where(
      and(
        filter.keyId ? eq(activity.keyId, filter.keyId) : undefined,
        filter.environment ? eq(activity.environment, filter.environment) : undefined,
        filter.action ? eq(activity.action, filter.action) : undefined,
        filter.from ? gte(activity.at, filter.from) : undefined,
        filter.to ? lt(activity.at, filter.to) : undefined,
        afterCursor(activity, filter.cursor),
      ),
    )
    .orderBy(desc(activity.at), desc(activity.id))
    .limit(limit + 1)
    .all();
  return toPage(rows, limit, activityFromRow);
}

/** A key's API log lines, newest first, keyset-paginated over (at, id). */
export function queryLogPage(db: SqliteDb, filter: LogFilter): Page<ApiLogEntry> {
  const limit = pageSizeOf(filter.limit);
  const rows = db
    .select()
    .from(apiLogs)
    .where(
      and(
        eq(apiLogs.keyId, filter.keyId),
        filter.secretId ? eq(apiLogs.secretId, filter.secretId) : undefined,
        filter.from ? gte(apiLogs.at, filter.from) : undefined,
        filter.to ? lt(apiLogs.at, filter.to) : undefined,
        afterCursor(apiLogs, filter.cursor),
      ),
    )
    .orderBy(desc(apiLogs.at), desc(apiLogs.id))
    .limit(limit + 1)
    .all();
  return toPage(rows, limit, logFromRow);
}
