import type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import type * as schema from './schema.ts';

/**
 * The drizzle handle every SQLite helper takes. It lives apart from sqlite-store.ts so the helpers
 * (admin, pages, sweep, writes) import it without importing the store that imports them.
 */
export type SqliteDb = BetterSQLite3Database<typeof schema>;
