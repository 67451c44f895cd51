import type Database from 'better-sqlite3';
import { and, desc, eq, lt, or, sql } from 'drizzle-orm';
import type { CreditsBalance } from '../../model/budget.ts';
import type { IdempotencySettle } from '../../model/model.ts';
import { decodeCursor, encodeCursor, pageSizeOf } from '../cursor.ts';
import type { BudgetConfigMethods, IdentityFilter } from '../store.ts';
import {
  identityFromRaw,
  identityFromRow,
  planFromRaw,
  planFromRow,
  type RawIdentityRow,
  type RawPlanRow,
} from './budget-rows.ts';
import type { SqliteDb } from './db.ts';
import { createSqliteIdempotencySettler } from './idempotency.ts';
import { keyFromRow } from './rows.ts';
import { creditBalances, identities, keys, plans } from './schema.ts';
import { bumpKeyGeneration } from './writes.ts';

/**
 * Plans and identities in SQLite. Every write is one IMMEDIATE transaction that also advances the
 * key generation, so every gateway sharing the file drops what it cached (as for a revocation);
 * deletes check in the same transaction that nothing names the row any more.
 */
export function createSqliteBudgetConfig(db: SqliteDb, client: Database.Database): BudgetConfigMethods {
  // The budget engine reads plans and identities on the request path: statements prepared once,
  // not built by drizzle for every read.
  const selectPlan = client.prepare<[string], RawPlanRow>(
    'SELECT id, name, limits, quotas, credits, created_at, updated_at, version FROM plans WHERE id = ?',
  );
  const selectIdentity = client.prepare<[string], RawIdentityRow>(
    'SELECT id, external_id, environment, plan_id, meta, limits, quotas, credits, created_at, updated_at, ' +
      'version FROM identities WHERE id = ?',
  );
  const write = <T>(work: (tx: SqliteDb) => T): T =>
    db.transaction((tx) => work(tx as unknown as SqliteDb), { behavior: 'immediate' });
  const settler = createSqliteIdempotencySettler(client);
  /** A write with the request's Idempotency-Key record in its transaction: `work` returns false before writing. */
  const writeSettled = (idempotency: IdempotencySettle | undefined, work: (tx: SqliteDb) => boolean) =>
    write((tx) => {
      if (idempotency && !settler.holds(idempotency)) return false;
      if (!work(tx)) return false;
      if (idempotency) settler.write(idempotency);
      return true;
    });
  const insertBalance = (tx: SqliteDb, subject: string, balance: CreditsBalance | undefined) => {
    if (balance)
      tx.insert(creditBalances)
        .values({ subject, ...balance })
        .run();
  };
  return {
    async createPlan(plan, idempotency) {
      return writeSettled(idempotency, (tx) => {
        const inserted = tx.insert(plans).values(plan).onConflictDoNothing().run();
        if (inserted.changes !== 1) return false;
        bumpKeyGeneration(tx);
        return true;
      });
    },
    async getPlan(id) {
      const row = selectPlan.get(id);
      return row ? planFromRaw(row) : null;
    },
    async listPlans() {
      return db.select().from(plans).orderBy(desc(plans.createdAt), desc(plans.id)).all().map(planFromRow);
    },
    async updatePlan(plan, expectedVersion, idempotency) {
      return writeSettled(idempotency, (tx) => {
        const { id, createdAt: _createdAt, ...fields } = plan;
        const updated = tx
          .update(plans)
          .set(fields)
          .where(and(eq(plans.id, id), eq(plans.version, expectedVersion)))
          .run();
        if (updated.changes !== 1) return false;
        bumpKeyGeneration(tx);
        return true;
      });
    },
    async deletePlan(id) {
      return write((tx) => {
        if (!tx.select({ id: plans.id }).from(plans).where(eq(plans.id, id)).get()) return 'missing';
        const key = tx.select({ id: keys.id }).from(keys).where(eq(keys.planId, id)).limit(1).get();
        const identity = tx
          .select({ id: identities.id })
          .from(identities)
          .where(eq(identities.planId, id))
          .limit(1)
          .get();
        if (key || identity) return 'in_use';
        tx.delete(plans).where(eq(plans.id, id)).run();
        bumpKeyGeneration(tx);
        return 'deleted';
      });
    },
    async createIdentity({ identity, creditsBalance }, idempotency) {
      return writeSettled(idempotency, (tx) => {
        // The plan is checked here too: one deleted since the caller read it is not named.
        if (
          identity.planId !== null &&
          !tx.select({ id: plans.id }).from(plans).where(eq(plans.id, identity.planId)).get()
        )
          return false;
        const inserted = tx.insert(identities).values(identity).onConflictDoNothing().run();
        if (inserted.changes !== 1) return false;
        insertBalance(tx, identity.id, creditsBalance);
        bumpKeyGeneration(tx);
        return true;
      });
    },
    async getIdentity(id) {
      const row = selectIdentity.get(id);
      return row ? identityFromRaw(row) : null;
    },
    async findIdentityByExternalId(environment, externalId) {
      const row = db
        .select()
        .from(identities)
        .where(and(eq(identities.environment, environment), eq(identities.externalId, externalId)))
        .get();
      return row ? identityFromRow(row) : null;
    },
    async listIdentities(filter: IdentityFilter = {}) {
      const limit = pageSizeOf(filter.limit);
      const position = filter.cursor ? decodeCursor(filter.cursor) : null;
      const rows = db
        .select()
        .from(identities)
        .where(
          and(
            filter.environment ? eq(identities.environment, filter.environment) : undefined,
            position
              ? or(
                  lt(identities.createdAt, position.at),
                  and(eq(identities.createdAt, position.at), lt(identities.id, position.id)),
                )
              : undefined,
          ),
        )
        .orderBy(desc(identities.createdAt), desc(identities.id))
        .limit(limit + 1)
        .all();
      const items = rows.slice(0, limit);
      const last = items.at(-1);
      const more = rows.length > limit && last;
      return {
        items: items.map(identityFromRow),
        nextCursor: more ? encodeCursor({ at: last.createdAt, id: last.id }) : null,
      };
    },
    async updateIdentity(identity, expectedVersion, idempotency) {
      return writeSettled(idempotency, (tx) => {
        if (
          identity.planId !== null &&
          !tx.select({ id: plans.id }).from(plans).where(eq(plans.id, identity.planId)).get()
        )
          return false;
        const { id, createdAt: _c, environment: _e, externalId: _x, ...fields } = identity;
        const updated = tx
          .update(identities)
          .set(fields)
          .where(and(eq(identities.id, id), eq(identities.version, expectedVersion)))
          .run();
        if (updated.changes !== 1) return false;
        bumpKeyGeneration(tx);
        return true;
      });
    },
    async deleteIdentity(id) {
      return write((tx) => {
        if (!tx.select({ id: identities.id }).from(identities).where(eq(identities.id, id)).get())
          return 'missing';
        if (tx.select({ id: keys.id }).from(keys).where(eq(keys.identityId, id)).limit(1).get())
          return 'in_use';
        tx.delete(identities).where(eq(identities.id, id)).run();
        tx.delete(creditBalances).where(eq(creditBalances.subject, id)).run();
        bumpKeyGeneration(tx);
        return 'deleted';
      });
    },
    async listKeysOfIdentity(identityId) {
      return db
        .select()
        .from(keys)
        .where(eq(keys.identityId, identityId))
        .orderBy(desc(keys.createdAt), desc(sql`rowid`))
        .all()
        .map(keyFromRow);
    },
  };
}
