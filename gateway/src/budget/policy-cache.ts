import type { ApiKey, Identity, Plan } from '@keygate/contracts/gateway';
import { type BudgetPolicy, resolvePolicy } from './policy.ts';

/** Where plans and identities are read from (the key store's point reads). */
export interface BudgetSourceReader {
  getPlan(id: string): Promise<Plan | null>;
  getIdentity(id: string): Promise<Identity | null>;
}

export interface PolicyCache {
  /**
   * The key's budget policy: null at once for a key without plan, identity, overrides or credits;
   * from memory when its key version and every plan and identity it reads are unchanged; else a
   * promise while they are read.
   */
  policyOf(key: ApiKey): BudgetPolicy | null | Promise<BudgetPolicy | null>;
  /** Forgets every policy (a plan or an identity changed, here or on another instance). */
  invalidate(): void;
}

interface Entry {
  keyVersion: number;
  generation: number;
  policy: BudgetPolicy | null;
}

/** True when a key has nothing but its per-minute limit: the common key costs no lookup at all. */
export function hasBudget(key: ApiKey): boolean {
  return (
    Boolean(key.identityId) ||
    Boolean(key.planId) ||
    (key.limits?.length ?? 0) > 0 ||
    (key.quotas?.length ?? 0) > 0 ||
    Boolean(key.credits)
  );
}

/**
 * Policies by key, bounded, dropped all at once on any plan or identity change (they are rare, and
 * the next call of each key reads its plan and identity again: two point reads).
 */
export function createPolicyCache(reader: BudgetSourceReader, maxEntries = 100_000): PolicyCache {
  const entries = new Map<string, Entry>();
  let generation = 0;

  async function load(key: ApiKey, at: number): Promise<BudgetPolicy | null> {
    const identity = key.identityId ? await reader.getIdentity(key.identityId) : null;
    const [keyPlan, identityPlan] = await Promise.all([
      key.planId ? reader.getPlan(key.planId) : null,
      identity?.planId ? reader.getPlan(identity.planId) : null,
    ]);
    const policy = resolvePolicy({ key, identity, keyPlan, identityPlan });
    // A change during the reads leaves the answer uncached: the next call reads again.
    if (at === generation) {
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(key.id, { keyVersion: key.version, generation: at, policy });
    }
    return policy;
  }

  return {
    policyOf(key) {
      if (!hasBudget(key)) return null;
      const entry = entries.get(key.id);
      if (entry !== undefined && entry.keyVersion === key.version && entry.generation === generation)
        return entry.policy;
      return load(key, generation);
    },
    invalidate() {
      generation++;
      entries.clear();
    },
  };
}
