import type { Problem } from './api.ts';
import { type LimitWindow, type Plan, QUOTA_PERIODS, type QuotaPeriod } from './budget-types.ts';
import type { Environment } from './types.ts';

/** One rate-limit row of the plan form, as its inputs hold it. */
export interface LimitRow {
  name: string;
  window: LimitWindow;
  limit: string;
}

/** The plan form's fields as the inputs hold them ('' for an empty quota or no refill). */
export interface PlanFormValues {
  name: string;
  limits: LimitRow[];
  quotas: Record<QuotaPeriod, string>;
  refillInterval: '' | 'daily' | 'monthly';
  refillAmount: string;
  refillDay: string;
}

/** An empty plan with one minute limit to fill in. */
export function emptyPlanValues(): PlanFormValues {
  return {
    name: '',
    limits: [{ name: 'minute', window: 'minute', limit: '' }],
    quotas: { day: '', week: '', month: '' },
    refillInterval: '',
    refillAmount: '',
    refillDay: '',
  };
}

/** A stored plan as form values, for editing it. */
export function planValues(plan: Plan): PlanFormValues {
  const quotas = { day: '', week: '', month: '' };
  for (const quota of plan.quotas) quotas[quota.period] = String(quota.limit);
  const refill = plan.credits?.refill;
  return {
    name: plan.name,
    limits: plan.limits.map((l) => ({ name: l.name, window: l.window, limit: String(l.limit) })),
    quotas,
    refillInterval: refill?.interval ?? '',
    refillAmount: refill ? String(refill.amount) : '',
    refillDay: refill?.day === undefined ? '' : String(refill.day),
  };
}

/** A number typed in a field: a number when it is one, else the text (so the API names the problem). */
export function amountOf(text: string): number | string {
  const trimmed = text.trim();
  return /^-?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/**
 * The POST / PATCH body: every member, so an edit replaces the plan's lists and a cleared refill
 * becomes `credits: null`. A limit row without a count is left out (the empty form offers a
 * "minute" row to fill in); the API checks the numbers.
 */
export function toPlanRequest(values: PlanFormValues): Record<string, unknown> {
  const limits = values.limits
    .filter((row) => row.limit.trim() !== '')
    .map((row) => ({ name: row.name.trim(), window: row.window, limit: amountOf(row.limit) }));
  const quotas = QUOTA_PERIODS.filter((period) => values.quotas[period].trim() !== '').map((period) => ({
    period,
    limit: amountOf(values.quotas[period]),
  }));
  const refill =
    values.refillInterval === ''
      ? null
      : {
          interval: values.refillInterval,
          amount: amountOf(values.refillAmount),
          ...(values.refillInterval === 'monthly' && values.refillDay.trim() !== ''
            ? { day: amountOf(values.refillDay) }
            : {}),
        };
  return { name: values.name, limits, quotas, credits: refill ? { refill } : null };
}

/** A problem made here, before any request: the form's JSON could not be read. */
export function localProblem(pointer: string, detail: string): Problem {
  return { type: 'about:blank', title: 'Check the form', status: 0, detail, errors: [{ pointer, detail }] };
}

/**
 * The identity form's metadata: '' is none, else a JSON object (the API's own checks follow);
 * a local problem when the text is no JSON object.
 */
export function parseMeta(text: string): { meta?: Record<string, unknown>; problem?: Problem } {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problem: localProblem('/meta', `meta is not valid JSON: ${(error as Error).message}`) };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { problem: localProblem('/meta', 'meta must be a JSON object, such as {"tier": "gold"}') };
  return { meta: value as Record<string, unknown> };
}

/** A plan's limits and quotas in one line: "100/minute · 1,000/day · refills 500 monthly". */
export function describePlan(plan: Plan): string {
  const parts = [
    ...plan.limits.map((l) => `${l.name}: ${l.limit.toLocaleString('en-GB')}/${l.window}`),
    ...plan.quotas.map((q) => `${q.limit.toLocaleString('en-GB')}/${q.period}`),
  ];
  const refill = plan.credits?.refill;
  if (refill)
    parts.push(
      `${refill.amount.toLocaleString('en-GB')} credits ${refill.interval}${refill.day ? ` on day ${refill.day}` : ''}`,
    );
  return parts.length > 0 ? parts.join(' · ') : 'no limits';
}

/** The POST /identities body from the form (meta already parsed; empty members left out). */
export function toIdentityRequest(values: {
  externalId: string;
  environment: Environment;
  planId: string;
  meta?: Record<string, unknown>;
  credits: string;
  /** The credits.low level (empty: none); sent with a level alone too, so the API says it needs credits. */
  lowAt?: string;
}): Record<string, unknown> {
  const credits = values.credits.trim();
  const lowAt = values.lowAt?.trim() ?? '';
  const level = lowAt === '' ? {} : { lowAt: amountOf(lowAt) };
  return {
    externalId: values.externalId,
    environment: values.environment,
    ...(values.planId ? { planId: values.planId } : {}),
    ...(values.meta ? { meta: values.meta } : {}),
    ...(credits === '' && lowAt === '' ? {} : { credits: { remaining: amountOf(credits), ...level } }),
  };
}
