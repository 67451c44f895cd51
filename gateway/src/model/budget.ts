import type {
  CreditsConfig,
  CreditsRefill,
  Identity,
  KeyBudget,
  Plan,
  PlanLimit,
  PlanQuota,
} from '@keygate/contracts/gateway';

export type { CreditsConfig, CreditsRefill, Identity, KeyBudget, Plan, PlanLimit, PlanQuota };

/** A starting (or set) credit balance, written with the key or identity that holds it. */
export interface CreditsBalance {
  remaining: number;
  /** Epoch ms of the last refill (the creation time for a new balance). */
  refilledAt: number;
}

/** An identity created with a starting credit balance. */
export interface IdentityCreation {
  identity: Identity;
  /** Written in the same transaction (SQLite) or script (Redis) as the identity. */
  creditsBalance?: CreditsBalance;
}

/** Result of a delete refused while something still names the target. */
export type DeleteOutcome = 'deleted' | 'missing' | 'in_use';
