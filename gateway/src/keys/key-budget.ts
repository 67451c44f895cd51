import type { CreditsInput } from '@keygate/contracts/gateway';
import { GatewayError } from '../errors.ts';
import type { CreditsBalance, KeyBudget } from '../model/budget.ts';
import type { ApiKey, Environment } from '../model/model.ts';
import type { KeyStore } from '../store/store.ts';
import { validationError } from './key-input.ts';

/**
 * The budget rules of a key (plans.ts), shared by its creation and its PATCH:
 * - a plan named must exist (404 PLAN_NOT_FOUND);
 * - an identity named must exist in the key's environment: for a key actor one of another
 *   environment is not revealed (404 IDENTITY_NOT_FOUND), an administrator is told (422);
 * - credits given at creation become the key's credits config (`{refill}`) and its starting balance;
 * - a key of an identity spends the identity's credits and holds none of its own (422): its budget
 *   then lives in one place, the identity's, which on a Redis Cluster is one slot.
 * No other escalation rule applies: a budget only ever narrows what a key may call.
 */

/** 404 for a plan that does not exist. */
export function planNotFound(planId: string, field = 'planId'): GatewayError {
  return new GatewayError('PLAN_NOT_FOUND', `No plan ${planId} (${field}).`);
}

/** 404 for an identity that does not exist, or that the actor may not see. */
export function identityNotFound(identityId: string): GatewayError {
  return new GatewayError('IDENTITY_NOT_FOUND', `No identity ${identityId} in this environment.`);
}

/** Checks the plan and identity a key is to name; `byKey`: the actor is an API key. */
export async function assertBudgetRefs(
  store: Pick<KeyStore, 'getPlan' | 'getIdentity'>,
  environment: Environment,
  refs: { planId?: string | null; identityId?: string | null },
  byKey: boolean,
): Promise<void> {
  const [plan, identity] = await Promise.all([
    refs.planId ? store.getPlan(refs.planId) : null,
    refs.identityId ? store.getIdentity(refs.identityId) : null,
  ]);
  if (refs.planId && !plan) throw planNotFound(refs.planId);
  if (!refs.identityId) return;
  if (!identity || (byKey && identity.environment !== environment)) throw identityNotFound(refs.identityId);
  if (identity.environment !== environment) {
    throw validationError([
      {
        detail: `identity ${identity.id} belongs to the ${identity.environment} environment, the key to ${environment}`,
        pointer: '/identityId',
      },
    ]);
  }
}

/** 422: a key of an identity spends the identity's credits (see the rules above). */
export function ownCreditsInIdentity(pointer: string): GatewayError {
  return validationError([
    {
      detail:
        "a key of an identity spends the identity's credits and holds none of its own: give the identity credits instead",
      pointer,
    },
  ]);
}

/** The budget fields of a new key from its creation input, and its starting balance if it holds credits. */
export function newKeyBudget(
  input: Partial<Pick<KeyBudget, 'identityId' | 'planId' | 'limits' | 'quotas'>> & {
    credits?: CreditsInput | null;
  },
  nowMs: number,
): { budget: KeyBudget; creditsBalance?: CreditsBalance } {
  if (input.identityId && input.credits) throw ownCreditsInIdentity('/credits');
  const budget: KeyBudget = {
    identityId: input.identityId ?? null,
    planId: input.planId ?? null,
    limits: input.limits ?? [],
    quotas: input.quotas ?? [],
    credits: input.credits ? { refill: input.credits.refill ?? null } : null,
  };
  return input.credits
    ? { budget, creditsBalance: { remaining: input.credits.remaining, refilledAt: nowMs } }
    : { budget };
}

/** The budget fields of a stored key, with the defaults of keys stored before plans existed. */
export function budgetOf(key: ApiKey): KeyBudget {
  return {
    identityId: key.identityId ?? null,
    planId: key.planId ?? null,
    limits: key.limits ?? [],
    quotas: key.quotas ?? [],
    credits: key.credits ?? null,
  };
}
