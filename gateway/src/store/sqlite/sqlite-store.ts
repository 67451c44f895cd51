import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { and, asc, desc, eq, gte, lt, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import type { LedgerStorage } from '../../budget/memory-ledger.ts';
import type { BudgetUsageStore } from '../../budget/usage-meter.ts';
import type { AlertStore, NewAlertEvent } from '../../model/alert-store.ts';
import type { ApiLogEntry, KeyChange, UsageBucket } from '../../model/model.ts';
import type { ActivityFilter, KeyStore, LogFilter } from '../store.ts';
import { createSqliteAdminSessions } from './admin.ts';
import { createSqliteAlertStore } from './alerts.ts';
import { createSqliteBudgetConfig } from './budget-config.ts';
import { createSqliteBudgetUsage } from './budget-usage.ts';
import type { SqliteDb } from './db.ts';
import { createSqliteIdempotency, createSqliteIdempotencySettler } from './idempotency.ts';
import { createSqliteLedgerStorage } from './ledger-storage.ts';
import { inPlaceLogWork, type SqliteLogWriter, startSqliteLogWriter } from './log-writer.ts';
import { prepareFindByLookup } from './lookup.ts';
import { createLookupIndex } from './lookup-index.ts';
import { queryActivityPage, queryLogPage } from './pages.ts';
import { activityToRow, adminFromRow, keyFromRow, secretFromRow, usageFromRow } from './rows.ts';
import * as schema from './schema.ts';
import { activity, adminUsers, keys, secrets, usageBuckets } from './schema.ts';
import { listSweepCandidateIds } from './sweep.ts';
import { commitKeyChange, createUsageBucketWriter, KEY_GENERATION } from './writes.ts';

/** A change-marker reading serves the rest of its event-loop turn, but never longer than this (ms). */
const MARKER_REUSE_MS = 1;

/** The committed drizzle-kit migrations (gateway/drizzle). */
const MIGRATIONS_FOLDER = join(import.meta.dirname, '..', '..', '..', 'drizzle');

/**
 * Opens (creating if needed) the SQLite key store at `file`, runs the migrations, and turns on
 * WAL, foreign keys and a busy timeout so the CLI and a running gateway can share the file.
 */
export function openSqliteKeyStore(file: string): SqliteKeyStore {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const client = new Database(file);
  client.pragma('journal_mode = WAL');
  client.pragma('foreign_keys = ON');
  client.pragma('busy_timeout = 5000');
  client.pragma('synchronous = NORMAL');
  // SQLite's own default page cache (2 MiB) instead of better-sqlite3's eight times that: the
  // data plane reads keys from memory, and the file's pages stay in the OS page cache anyway.
  client.pragma('cache_size = -2000');
  const db = drizzle({ client, schema });
  runMigrations(db);
  return createSqliteKeyStore(db, client, file === ':memory:' ? null : startSqliteLogWriter(file));
}

/** Two processes opening a fresh file at once may race; the loser retries and finds the work done. */
function runMigrations(db: SqliteDb): void {
  try {
    migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  } catch {
    migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  }
}

/** The SQLite key store, with the tables of plans, quotas and credits the gateway's ledger uses. */
export type SqliteKeyStore = KeyStore & {
  /** Storage of the in-process budget ledger, and billing usage, on this file. */
  budgetStorage: { ledger: LedgerStorage; usage: BudgetUsageStore };
  /** The alert outbox and its endpoints on this file. */
  alertStorage: AlertStore;
};

function createSqliteKeyStore(
  db: SqliteDb,
  client: Database.Database,
  logWriter: SqliteLogWriter | null,
): SqliteKeyStore {
  // The key cache's change marker, asked on every request: `PRAGMA data_version` moves with any
  // commit of another connection (the CLI, the API-log writer); only then is the key generation read.
  const dataVersion = client.prepare('PRAGMA data_version').pluck();
  // Sandbox lines (test keys: with bodies) are inserted on this connection, one prepared statement
  // a line in one transaction: drizzle's multi-row insert built its SQL anew for every batch, which
  // cost a busy test key more of the event loop than the rest of its calls.
  const insertWithBodies = client.prepare(
    'INSERT INTO api_logs (id, key_id, secret_id, at, method, path, status, latency_ms, client_ip, trace_id, bodies) ' +
      'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
  );
  const insertLinesWithBodies = client.transaction((entries: readonly ApiLogEntry[]) => {
    for (const entry of entries) {
      insertWithBodies.run(
        entry.id,
        entry.keyId,
        entry.secretId,
        entry.at,
        entry.method,
        entry.path,
        entry.status,
        entry.latencyMs,
        entry.clientIp,
        entry.traceId ?? null,
        JSON.stringify(entry.bodies),
      );
    }
  });
  const keyGeneration = client
    .prepare('SELECT value FROM store_counters WHERE name = ?')
    .pluck()
    .bind(KEY_GENERATION);
  const writeUsage = createUsageBucketWriter(client);
  const findByLookup = prepareFindByLookup(client);
  // The generation the lookup index has read up to: read before the index, so a commit between the
  // two moves the generation past it and is read in by the next miss.
  let indexedGeneration = keyGeneration.get() as number;
  const lookupIndex = createLookupIndex(client);
  let seenVersion: number | undefined;
  let generation = 0;
  // The requests one turn of the event loop handles had all arrived when it began, so one reading at
  // the first of them is as fresh for every one (a commit after it is concurrent with all of them);
  // it is forgotten when the turn ends (setImmediate), and after MARKER_REUSE_MS in any case. Each
  // reading starts and ends an SQLite read transaction (file locks), which is what reuse saves.
  // NEGATIVE_INFINITY: no reading kept (and no forgetting scheduled).
  let readAt = Number.NEGATIVE_INFINITY;
  const forget = () => {
    readAt = Number.NEGATIVE_INFINITY;
  };
  // API-log lines are written, and they and the usage buckets pruned, by the writer's thread, off the
  // event loop (see log-writer.ts); an in-memory database, which no other connection can
  // open, does it in place.
  const logWork = logWriter ?? inPlaceLogWork(client);
  function changeMarker(): number {
    const now = performance.now();
    if (now - readAt < MARKER_REUSE_MS) return generation;
    const version = dataVersion.get() as number;
    if (version !== seenVersion) {
      generation = keyGeneration.get() as number;
      seenVersion = version;
    }
    // Only a reading that succeeded is reused: a failed one throws again on the next request.
    if (readAt === Number.NEGATIVE_INFINITY) setImmediate(forget).unref();
    readAt = now;
    return generation;
  }
  /** Whether a secret with this lookup may be on file: the index, caught up if another connection committed keys. */
  function mayHoldLookup(lookup: string): boolean {
    if (lookupIndex.has(lookup)) return true;
    const current = changeMarker();
    if (current === indexedGeneration) return false;
    lookupIndex.catchUp();
    indexedGeneration = current;
    return lookupIndex.has(lookup);
  }
  const alertStorage = createSqliteAlertStore(client);
  const companions = {
    idempotency: createSqliteIdempotencySettler(client),
    recordAlert: (event: NewAlertEvent) => void alertStorage.recordEventNow(event),
  };
  return {
    lookupsInMemory: true,
    budgetStorage: { ledger: createSqliteLedgerStorage(client), usage: createSqliteBudgetUsage(client) },
    alertStorage,
    async commitChange(change: KeyChange) {
      const committed = commitKeyChange(db, change, companions);
      if (committed) lookupIndex.add(change.secrets.map((secret) => secret.lookup));
      return committed;
    },
    async getKey(id) {
      const row = db.select().from(keys).where(eq(keys.id, id)).get();
      return row ? keyFromRow(row) : null;
    },
    async listKeys(filter = {}) {
      const where = and(
        filter.environment ? eq(keys.environment, filter.environment) : undefined,
        filter.status ? eq(keys.status, filter.status) : undefined,
      );
      const rows = db.select().from(keys).where(where).orderBy(desc(keys.createdAt), desc(sql`rowid`)).all();
      return rows.map(keyFromRow);
    },
    async listSecrets(keyId) {
      const rows = db
        .select()
        .from(secrets)
        .where(eq(secrets.keyId, keyId))
        .orderBy(desc(secrets.createdAt), desc(sql`rowid`))
        .all();
      return rows.map(secretFromRow);
    },
    async listSweepCandidates(nowMs, reminderLeadDays) {
      return listSweepCandidateIds(db, nowMs, reminderLeadDays);
    },
    async setSecretTag(secret, tag) {
      db.update(secrets).set({ tag }).where(eq(secrets.id, secret.id)).run();
    },
    findByLookup(lookup) {
      return mayHoldLookup(lookup) ? findByLookup(lookup) : null;
    },
    async listActivity(filter: ActivityFilter) {
      return queryActivityPage(db, filter);
    },
    async recordUsage(buckets: UsageBucket[]) {
      writeUsage(buckets);
    },
    async queryUsage(query) {
      const rows = db
        .select()
        .from(usageBuckets)
        .where(
          and(
            eq(usageBuckets.keyId, query.keyId),
            gte(usageBuckets.minute, query.from),
            lt(usageBuckets.minute, query.to),
          ),
        )
        .orderBy(asc(usageBuckets.minute), asc(usageBuckets.secretId))
        .all();
      return rows.map(usageFromRow);
    },
    async pruneUsage(beforeMs) {
      return logWork.pruneUsage(beforeMs);
    },
    async appendLogs(entries: ApiLogEntry[]) {
      // Lines with bodies (test keys: the sandbox) are few and large: inserted here, on the store's
      // connection; the others keep the log writer's packed path, which has no room for them.
      const withBodies = entries.filter((entry) => entry.bodies !== undefined);
      if (withBodies.length === 0) return logWork.append(entries);
      insertLinesWithBodies(withBodies);
      if (withBodies.length < entries.length)
        await logWork.append(entries.filter((entry) => entry.bodies === undefined));
    },
    async appendActivity(entry) {
      db.insert(activity).values(activityToRow(entry)).run();
    },
    async queryLogs(filter: LogFilter) {
      return queryLogPage(db, filter);
    },
    async pruneLogs(before) {
      return logWork.pruneLogs(before);
    },
    async createAdmin(user) {
      const result = db
        .insert(adminUsers)
        .values({ ...user, emailNormalized: normalizeEmail(user.email) })
        .onConflictDoNothing()
        .run();
      return result.changes === 1;
    },
    async findAdminByEmail(email) {
      const row = db
        .select()
        .from(adminUsers)
        .where(eq(adminUsers.emailNormalized, normalizeEmail(email)))
        .get();
      return row ? adminFromRow(row) : null;
    },
    ...createSqliteAdminSessions(db),
    ...createSqliteIdempotency(client),
    ...createSqliteBudgetConfig(db, client),
    changeMarker,
    async ping() {
      try {
        return client.prepare('SELECT 1 AS ok').get() !== undefined;
      } catch {
        return false;
      }
    },
    async close() {
      await logWriter?.close();
      if (client.open) client.close();
    },
  };
}

/** Emails compare case-insensitively (trimmed, lower-cased, Unicode-aware). */
function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
