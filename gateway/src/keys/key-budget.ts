import type { CreditsConfigPatch, CreditsInput } from '@keygate/contracts/gateway';
import { GatewayError } from '../errors.ts';
import type { CreditsBalance, CreditsConfig, KeyBudget } from '../model/budget.ts';
import type { ApiKey, Environment } from '../model/model.ts';
import type { KeyStore } from '../store/store.ts';
import { validationError } from './key-input.ts';

/**
 * The budget rules of a key (plans.ts), shared by its creation and its PATCH:
 * - a plan named must exist (404 PLAN_NOT_FOUND);
 * - an identity named must exist in the key's environment: for a key actor one of another
 *   environment is not revealed (404 IDENTITY_NOT_FOUND), an administrator is told (422);
 * - credits given at creation become the key's credits config (`{refill, lowAt?}`) and its starting
 *   balance; a PATCH may change the `credits.low` level of a key holding credits of its own (409
 *   CREDITS_NOT_HELD otherwise: a balance a plan's refill gives takes the plan's level);
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
    credits: input.credits ? creditsConfigOf(input.credits) : null,
  };
  return input.credits
    ? { budget, creditsBalance: { remaining: input.credits.remaining, refilledAt: nowMs } }
    : { budget };
}

/** The credits config a key or an identity created with `credits` holds: its refill and its level. */
export function creditsConfigOf(input: CreditsInput): CreditsConfig {
  const refill = input.refill ?? null;
  return input.lowAt === undefined ? { refill } : { refill, lowAt: input.lowAt };
}

/**
 * The credits config after a PATCH of its level (null removes it), or 409 CREDITS_NOT_HELD for a
 * holder without credits of its own: giving it a config would give it a balance of 0.
 */
export function patchedCredits(
  current: CreditsConfig | null,
  patch: CreditsConfigPatch,
  holder: string,
): CreditsConfig {
  if (current === null)
    throw new GatewayError(
      'CREDITS_NOT_HELD',
      `${holder} holds no credits of its own, so it has no credits.low level to set: a balance from a plan's refill follows the plan's lowAt.`,
    );
  const { lowAt: _lowAt, ...rest } = current;
  return patch.lowAt === null ? rest : { ...rest, lowAt: patch.lowAt };
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
