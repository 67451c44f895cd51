import {
  type ApiKey,
  type CreditsRefill,
  type Identity,
  LIMIT_WINDOW_SECONDS,
  type LimitWindow,
  type Plan,
  type PlanLimit,
  type PlanQuota,
  type QuotaPeriod,
} from '@keygate/contracts/gateway';

/** One limit or quota as it applies to a call: who counts it, and how much it allows per window. */
export interface BudgetLine {
  /** `limit` counts per rate-limit window, `quota` per calendar period. */
  kind: 'limit' | 'quota';
  /** The policy's name in the RateLimit headers: the limit's name, or the quota's period. */
  name: string;
  window: LimitWindow | QuotaPeriod;
  limit: number;
  /** Who the count belongs to: a key id, or an identity id (shared by its keys). */
  subject: string;
}

/** The credit balance a call spends from, and its refill (none: spent until set again). */
export interface CreditsLine {
  subject: string;
  refill: CreditsRefill | null;
  /** The `credits.low` alert level (absent: none). */
  lowAt?: number;
}

/** Everything a call is metered against beyond the key's own per-minute limit. */
export interface BudgetPolicy {
  /** Limits first, then quotas, each in a stable order: the order refusals are decided in. */
  lines: BudgetLine[];
  credits: CreditsLine | null;
}

/** The budget objects a key's policy is resolved from (plans by id, as the store holds them). */
export interface BudgetSources {
  key: ApiKey;
  identity: Identity | null;
  keyPlan: Plan | null;
  identityPlan: Plan | null;
}

const QUOTA_ORDER: Record<QuotaPeriod, number> = { day: 0, week: 1, month: 2 };

/**
 * The key's policy. Each limit (by name) and quota (by period) comes from the first that has it: the
 * key's own overrides, the key's plan, the identity's overrides, the identity's plan. It counts on
 * the key when the key's own value or plan gave it, else on the identity: an identity's budget is
 * shared by all its keys, while a key's own value limits that key alone. Null when nothing applies.
 */
export function resolvePolicy({ key, identity, keyPlan, identityPlan }: BudgetSources): BudgetPolicy | null {
  const identitySubject = identity?.id ?? key.id;
  const layers: Array<{ limits: PlanLimit[]; quotas: PlanQuota[]; subject: string }> = [
    { limits: key.limits ?? [], quotas: key.quotas ?? [], subject: key.id },
    { limits: keyPlan?.limits ?? [], quotas: keyPlan?.quotas ?? [], subject: key.id },
    { limits: identity?.limits ?? [], quotas: identity?.quotas ?? [], subject: identitySubject },
    { limits: identityPlan?.limits ?? [], quotas: identityPlan?.quotas ?? [], subject: identitySubject },
  ];
  const limits = new Map<string, BudgetLine>();
  const quotas = new Map<QuotaPeriod, BudgetLine>();
  for (const layer of layers) {
    for (const limit of layer.limits)
      if (!limits.has(limit.name))
        limits.set(limit.name, { kind: 'limit', ...limit, subject: layer.subject });
    for (const quota of layer.quotas)
      if (!quotas.has(quota.period))
        quotas.set(quota.period, {
          kind: 'quota',
          name: quota.period,
          window: quota.period,
          limit: quota.limit,
          subject: layer.subject,
        });
  }
  const lines = [
    ...[...limits.values()].sort(
      (a, b) =>
        LIMIT_WINDOW_SECONDS[a.window as LimitWindow] - LIMIT_WINDOW_SECONDS[b.window as LimitWindow] ||
        a.name.localeCompare(b.name),
    ),
    ...[...quotas.values()].sort(
      (a, b) => QUOTA_ORDER[a.window as QuotaPeriod] - QUOTA_ORDER[b.window as QuotaPeriod],
    ),
  ];
  const credits = withLowAt(creditsLineOf({ key, identity, keyPlan, identityPlan }), {
    key,
    identity,
    keyPlan,
    identityPlan,
  });
  return lines.length === 0 && credits === null ? null : { lines, credits };
}

/**
 * The balance a call spends: the key's own, else its identity's, else one a plan's refill gives the
 * key (or its identity), which starts at the refill amount on first use.
 */
function creditsLineOf({ key, identity, keyPlan, identityPlan }: BudgetSources): CreditsLine | null {
  if (key.credits) return { subject: key.id, refill: key.credits.refill ?? keyPlan?.credits?.refill ?? null };
  if (identity?.credits)
    return { subject: identity.id, refill: identity.credits.refill ?? identityPlan?.credits?.refill ?? null };
  if (keyPlan?.credits) return { subject: key.id, refill: keyPlan.credits.refill };
  if (identityPlan?.credits && identity) return { subject: identity.id, refill: identityPlan.credits.refill };
  return null;
}

/** The line with its `credits.low` level: the holder's own, else its plan's (a line without one is left as is). */
function withLowAt(
  line: CreditsLine | null,
  { key, identity, keyPlan, identityPlan }: BudgetSources,
): CreditsLine | null {
  if (line === null) return null;
  const holder = line.subject === key.id ? key.credits : identity?.credits;
  const plan = line.subject === key.id && (key.credits || keyPlan?.credits) ? keyPlan : identityPlan;
  const lowAt = holder?.lowAt ?? plan?.credits?.lowAt;
  return lowAt === undefined ? line : { ...line, lowAt };
}
