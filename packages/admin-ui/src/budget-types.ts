/**
 * Shapes of the plan, identity, credits and billing-usage answers of the admin API. Plans and
 * identities are the contracts' own types (types only: nothing of the gateway is bundled).
 */
import type { CallOutcome, PlanQuota, QuotaPeriod } from '@keygate/contracts/gateway';

export type {
  CallOutcome,
  CreditsRefill,
  Identity,
  IdentityWithKeys,
  LimitWindow,
  Plan,
  PlanLimit,
  PlanQuota,
  QuotaPeriod,
  RefillInterval,
} from '@keygate/contracts/gateway';

/** A balance as `GET …/credits` answers it. */
export interface CreditsView {
  remaining: number;
  refill: { interval: 'daily' | 'monthly'; amount: number; day?: number } | null;
  /** ISO time of the next refill, or null. */
  refillsAt: string | null;
}

/** Calls and spent cost of a key or an identity in one period, in total and by outcome. */
export interface PeriodUsage {
  period: string;
  from: string;
  to: string;
  total: { calls: number; cost: number };
  outcomes: Partial<Record<CallOutcome, { calls: number; cost: number }>>;
}

/** `GET /keys/{id}/usage?period=…`: the key's traffic, with its billing usage beside it. */
export interface KeyPeriodUsage {
  billing: PeriodUsage;
}

/** The quota periods in display order; a Record so the compiler finds one missing. */
const PERIODS: Record<QuotaPeriod, true> = { day: true, week: true, month: true };
export const QUOTA_PERIODS = Object.keys(PERIODS) as QuotaPeriod[];

/** The rate-limit windows, in order. */
export const LIMIT_WINDOWS = ['second', 'minute', 'hour'] as const;

/** The outcomes in the order the gateway lists them (admitted first). */
const OUTCOMES: Record<CallOutcome, true> = {
  VALID: true,
  RATE_LIMITED: true,
  QUOTA_EXCEEDED: true,
  CREDITS_EXHAUSTED: true,
  FORBIDDEN_SCOPE: true,
  FORBIDDEN_IP: true,
  EXPIRED: true,
  REVOKED: true,
  INVALID_SECRET: true,
  UPSTREAM_ERROR: true,
};
export const CALL_OUTCOMES = Object.keys(OUTCOMES) as CallOutcome[];

/** The quotas that apply: the holder's overrides replace the plan's of the same period. */
export function effectiveQuotas(
  planQuotas: readonly PlanQuota[],
  overrides: readonly PlanQuota[],
): PlanQuota[] {
  return QUOTA_PERIODS.flatMap((period) => {
    const quota = overrides.find((q) => q.period === period) ?? planQuotas.find((q) => q.period === period);
    return quota ? [quota] : [];
  });
}
