import type { Identity, Plan } from '../../model/budget.ts';
import type { ApiKey, Environment, IdempotencySettle } from '../../model/model.ts';
import { decodeCursor, encodeCursor, pageSizeOf } from '../cursor.ts';
import type { BudgetConfigMethods, IdentityFilter } from '../store.ts';
import { encodeBudgetInvalidation, lexMember, type RedisKeyNames } from './keys.ts';
import { readKey } from './reads.ts';
import { settleParts, withSettle } from './settle.ts';
import type { RedisStoreContext } from './writes.ts';

type Reply = string | null;

function decodeVersioned<T extends { version: number }>([data, version]: Reply[]): T | null {
  return data ? ({ ...JSON.parse(data), version: Number(version) } as T) : null;
}

/** The stored JSON of a plan or identity: everything but `version`, which has a field of its own. */
function encodeData<T extends { version: number }>(value: T): string {
  const { version: _version, ...data } = value;
  return JSON.stringify(data);
}

const externalField = (environment: Environment, externalId: string) => `${environment} ${externalId}`;

/**
 * Plans and identities on Redis. A plan lives in the plans group, an identity (and its credit
 * balance) in its own id's slot group, as a key does; the external-id index and the identity lists
 * in the plans group. Scripts publish `plan`/`identity` on the invalidation channel with the write.
 *
 * Outside a Cluster every name shares one server: a delete checks in its script that nothing names
 * the plan or identity, and the scripts writing a key or an identity that nothing they name is
 * missing. On a Cluster those sit in other slots: a delete counts the users in every group first
 * and writers read the plan before, so a key created in the same instant may still name a deleted
 * plan (the key reads as on no plan). Creating an identity claims its external id, then writes it:
 * a crash between the two leaves the external id taken by an identity that does not exist.
 */
export function createRedisBudgetConfig(ctx: RedisStoreContext): BudgetConfigMethods {
  const { client, layout, scripts } = ctx;
  const plans = layout.plans;
  const single = layout.groups.length === 1;
  const message = (kind: 'plan' | 'identity', id: string) =>
    encodeBudgetInvalidation({ kind, origin: ctx.origin, id });
  const readPlan = async (id: string) =>
    decodeVersioned<Plan>(await client.hmget(plans.plan(id), 'data', 'version'));
  const readIdentity = async (id: string) =>
    decodeVersioned<Identity>(await client.hmget(layout.forKey(id).identity(id), 'data', 'version'));
  /** Whether any group's set of this name holds a member. */
  const anyMember = async (setOf: (names: RedisKeyNames) => string) => {
    const counts = await Promise.all(layout.groups.map((names) => client.scard(setOf(names))));
    return counts.some((count) => count > 0);
  };
  const claimArgs = (identity: Identity) => [
    3,
    plans.identitiesByExternalId,
    plans.identitiesAll,
    plans.identitiesByEnv(identity.environment),
    externalField(identity.environment, identity.externalId),
    identity.id,
    lexMember(identity.createdAt, identity.id),
  ];
  const putIdentity = async (
    identity: Identity,
    expected: number | null,
    credits?: [number, number],
    idempotency?: IdempotencySettle,
  ) => {
    const names = layout.forKey(identity.id);
    const settle = settleParts(ctx, idempotency, names, names.budget(identity.id));
    const write = async () =>
      (await scripts.putIdentity(
        3,
        names.identity(identity.id),
        names.budget(identity.id),
        settle.name,
        expected === null ? '' : String(expected),
        String(identity.version),
        encodeData(identity),
        identity.environment,
        identity.externalId,
        identity.id,
        credits?.[0] ?? '',
        credits?.[1] ?? '',
        names.channel,
        message('identity', identity.id),
        single ? '1' : '',
        ...settle.args,
      )) === 1;
    return withSettle(ctx, idempotency, names, write);
  };
  const putPlan = (plan: Plan, expected: number | null, idempotency?: IdempotencySettle) => {
    const settle = settleParts(ctx, idempotency, plans, plans.plansAll);
    const write = async () =>
      (await scripts.putPlan(
        3,
        plans.plan(plan.id),
        plans.plansAll,
        settle.name,
        expected === null ? '' : String(expected),
        String(plan.version),
        encodeData(plan),
        lexMember(plan.createdAt, plan.id),
        plans.channel,
        message('plan', plan.id),
        ...settle.args,
      )) === 1;
    return withSettle(ctx, idempotency, plans, write);
  };
  return {
    createPlan: (plan, idempotency) => putPlan(plan, null, idempotency),
    getPlan: readPlan,
    async listPlans() {
      const members = await client.zrevrangebylex(plans.plansAll, '+', '-');
      const found = await Promise.all(
        members.map((member) => readPlan(member.slice(member.indexOf(' ') + 1))),
      );
      return found.filter((plan): plan is Plan => plan !== null);
    },
    updatePlan: (plan, expectedVersion, idempotency) => putPlan(plan, expectedVersion, idempotency),
    async deletePlan(id) {
      if (!single && (await anyMember((names) => names.planKeys(id)))) return 'in_use';
      if (!single && (await anyMember((names) => names.planIdentities(id)))) return 'in_use';
      const users = single ? [plans.planKeys(id), plans.planIdentities(id)] : [];
      const outcome = await scripts.deletePlan(
        2 + users.length,
        plans.plan(id),
        plans.plansAll,
        ...users,
        id,
        plans.channel,
        message('plan', id),
      );
      return outcome as 'deleted' | 'missing' | 'in_use';
    },
    async createIdentity({ identity, creditsBalance }, idempotency) {
      // Outside a Cluster the write script checks the plan itself, atomically.
      if (!single && identity.planId !== null && (await readPlan(identity.planId)) === null) return false;
      const args = claimArgs(identity);
      if ((await scripts.claimIdentity(...args)) !== 1) return false;
      const credits = creditsBalance
        ? ([creditsBalance.remaining, creditsBalance.refilledAt] as const)
        : undefined;
      let written = false;
      try {
        written = await putIdentity(identity, null, credits && [...credits], idempotency);
      } finally {
        if (!written) await scripts.releaseIdentity(...args);
      }
      return written;
    },
    getIdentity: readIdentity,
    async findIdentityByExternalId(environment, externalId) {
      const id = await client.hget(plans.identitiesByExternalId, externalField(environment, externalId));
      return id ? readIdentity(id) : null;
    },
    async listIdentities(filter: IdentityFilter = {}) {
      const limit = pageSizeOf(filter.limit);
      const index = filter.environment ? plans.identitiesByEnv(filter.environment) : plans.identitiesAll;
      const position = filter.cursor ? decodeCursor(filter.cursor) : null;
      const max = position ? `(${lexMember(position.at, position.id)}` : '+';
      const members = await client.zrevrangebylex(index, max, '-', 'LIMIT', 0, limit + 1);
      const page = members.slice(0, limit);
      const found = await Promise.all(
        page.map((member) => readIdentity(member.slice(member.indexOf(' ') + 1))),
      );
      const last = page.at(-1);
      const [at, lastId] = last ? [last.slice(0, last.indexOf(' ')), last.slice(last.indexOf(' ') + 1)] : [];
      return {
        items: found.filter((identity): identity is Identity => identity !== null),
        nextCursor: members.length > limit && at && lastId ? encodeCursor({ at, id: lastId }) : null,
      };
    },
    async updateIdentity(identity, expectedVersion, idempotency) {
      if (!single && identity.planId !== null && (await readPlan(identity.planId)) === null) return false;
      const current = await readIdentity(identity.id);
      if (!current) return false;
      const { environment, externalId } = current;
      return putIdentity({ ...identity, environment, externalId }, expectedVersion, undefined, idempotency);
    },
    async deleteIdentity(id) {
      const names = layout.forKey(id);
      if (!single && (await anyMember((group) => group.identityKeys(id)))) return 'in_use';
      const [outcome, data] = (await scripts.deleteIdentity(
        3,
        names.identity(id),
        names.budget(id),
        names.identityKeys(id),
        id,
        names.channel,
        message('identity', id),
      )) as [string, string?];
      if (outcome !== 'deleted' || !data) return outcome as 'missing' | 'in_use';
      const { environment, externalId, createdAt } = JSON.parse(data) as Identity;
      await scripts.releaseIdentity(...claimArgs({ id, environment, externalId, createdAt } as Identity));
      return 'deleted';
    },
    async listKeysOfIdentity(identityId) {
      const ids = await Promise.all(
        layout.groups.map((names) => client.smembers(names.identityKeys(identityId))),
      );
      const keys = await Promise.all(ids.flat().map((keyId) => readKey(ctx, keyId)));
      return keys
        .filter((key): key is ApiKey => key !== null && key.identityId === identityId)
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
    },
  };
}
