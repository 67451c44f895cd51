import type { CreditsConfig, PlanQuota } from '@keygate/contracts/gateway';
import type { KeyStore } from '../../gateway/src/store/store.ts';

/**
 * Gives an existing key quotas and credits straight in the store, as the plans API will: a
 * version-checked change every gateway instance picks up (SQLite's change marker, Redis' channel).
 */
export async function setKeyBudget(
  store: KeyStore,
  keyId: string,
  budget: { quotas?: PlanQuota[]; credits?: CreditsConfig | null },
): Promise<void> {
  const key = await store.getKey(keyId);
  if (!key) throw new Error(`no key ${keyId}`);
  const at = new Date().toISOString();
  const committed = await store.commitChange({
    key: { ...key, ...budget, version: key.version + 1, updatedAt: at },
    expectedVersion: key.version,
    secrets: [],
    activity: {
      id: `act_budget${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`,
      keyId,
      environment: key.environment,
      action: 'key.budget_changed',
      actor: { type: 'system', id: 'keygate' },
      at,
      sourceIp: null,
      before: null,
      after: { quotas: budget.quotas ?? null, credits: budget.credits ?? null },
      details: {},
    },
  });
  if (!committed) throw new Error(`the budget of ${keyId} was not stored`);
}
