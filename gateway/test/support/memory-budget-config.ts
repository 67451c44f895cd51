import type { CreditsBalance, Identity, Plan } from '../../src/model/budget.ts';
import type { ApiKey } from '../../src/model/model.ts';
import { decodeCursor, encodeCursor, pageSizeOf } from '../../src/store/cursor.ts';
import type { BudgetConfigMethods } from '../../src/store/store.ts';

/** The in-memory state behind the memory store's plans, identities and credit balances. */
export interface MemoryBudgetState {
  plans: Map<string, Plan>;
  identities: Map<string, Identity>;
  /** Credit balances by subject (`key_…` / `idt_…`). */
  balances: Map<string, CreditsBalance>;
}

const newestFirst = (a: { createdAt: string; id: string }, b: { createdAt: string; id: string }) =>
  b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id);

/** Plans and identities in memory, held to the same contract as the real stores; `onChange` moves the change marker. */
export function createMemoryBudgetConfig(
  keys: Map<string, ApiKey>,
  state: MemoryBudgetState,
  track: (method: string) => void,
  onChange: () => void,
): BudgetConfigMethods {
  const clone = <T>(value: T): T => structuredClone(value);
  const { plans, identities, balances } = state;
  const keysNaming = (field: 'planId' | 'identityId', id: string) =>
    [...keys.values()].filter((key) => key[field] === id);
  return {
    async createPlan(plan) {
      track('createPlan');
      if (plans.has(plan.id)) return false;
      plans.set(plan.id, clone(plan));
      onChange();
      return true;
    },
    async getPlan(id) {
      track('getPlan');
      const plan = plans.get(id);
      return plan ? clone(plan) : null;
    },
    async listPlans() {
      track('listPlans');
      return [...plans.values()].sort(newestFirst).map(clone);
    },
    async updatePlan(plan, expectedVersion) {
      track('updatePlan');
      if (plans.get(plan.id)?.version !== expectedVersion) return false;
      plans.set(plan.id, clone(plan));
      onChange();
      return true;
    },
    async deletePlan(id) {
      track('deletePlan');
      if (!plans.has(id)) return 'missing';
      const named = [...identities.values()].some((identity) => identity.planId === id);
      if (named || keysNaming('planId', id).length > 0) return 'in_use';
      plans.delete(id);
      onChange();
      return 'deleted';
    },
    async createIdentity({ identity, creditsBalance }) {
      track('createIdentity');
      const taken = [...identities.values()].some(
        (other) => other.environment === identity.environment && other.externalId === identity.externalId,
      );
      if (taken || identities.has(identity.id)) return false;
      if (identity.planId !== null && !plans.has(identity.planId)) return false;
      identities.set(identity.id, clone(identity));
      if (creditsBalance) balances.set(identity.id, { ...creditsBalance });
      onChange();
      return true;
    },
    async getIdentity(id) {
      track('getIdentity');
      const identity = identities.get(id);
      return identity ? clone(identity) : null;
    },
    async findIdentityByExternalId(environment, externalId) {
      track('findIdentityByExternalId');
      const found = [...identities.values()].find(
        (identity) => identity.environment === environment && identity.externalId === externalId,
      );
      return found ? clone(found) : null;
    },
    async listIdentities(filter = {}) {
      track('listIdentities');
      const limit = pageSizeOf(filter.limit);
      const after = filter.cursor ? decodeCursor(filter.cursor) : null;
      const all = [...identities.values()]
        .filter((identity) => !filter.environment || identity.environment === filter.environment)
        .sort(newestFirst)
        .filter((i) => !after || i.createdAt < after.at || (i.createdAt === after.at && i.id < after.id));
      const items = all.slice(0, limit);
      const last = items.at(-1);
      return {
        items: items.map(clone),
        nextCursor: all.length > limit && last ? encodeCursor({ at: last.createdAt, id: last.id }) : null,
      };
    },
    async updateIdentity(identity, expectedVersion) {
      track('updateIdentity');
      const current = identities.get(identity.id);
      if (current?.version !== expectedVersion) return false;
      if (identity.planId !== null && !plans.has(identity.planId)) return false;
      identities.set(identity.id, { ...clone(identity), environment: current.environment });
      onChange();
      return true;
    },
    async deleteIdentity(id) {
      track('deleteIdentity');
      if (!identities.has(id)) return 'missing';
      if (keysNaming('identityId', id).length > 0) return 'in_use';
      identities.delete(id);
      balances.delete(id);
      onChange();
      return 'deleted';
    },
    async listKeysOfIdentity(identityId) {
      track('listKeysOfIdentity');
      return keysNaming('identityId', identityId).sort(newestFirst).map(clone);
    },
  };
}
