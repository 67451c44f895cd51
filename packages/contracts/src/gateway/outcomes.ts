import { z } from 'zod';

/**
 * How a call ended, as usage, billing exports and analytics count it (DESIGN.md, "Alerts and
 * analytics"): admitted (`VALID`), refused by the key's budget or its checks, or failed upstream.
 */
export const CALL_OUTCOMES = [
  'VALID',
  'RATE_LIMITED',
  'QUOTA_EXCEEDED',
  'CREDITS_EXHAUSTED',
  'FORBIDDEN_SCOPE',
  'FORBIDDEN_IP',
  'EXPIRED',
  'REVOKED',
  'INVALID_SECRET',
  'UPSTREAM_ERROR',
] as const;

export type CallOutcome = (typeof CALL_OUTCOMES)[number];

const OUTCOME_OF_PROBLEM: Record<string, CallOutcome> = {
  RATE_LIMITED: 'RATE_LIMITED',
  QUOTA_EXCEEDED: 'QUOTA_EXCEEDED',
  CREDITS_EXHAUSTED: 'CREDITS_EXHAUSTED',
  INSUFFICIENT_SCOPE: 'FORBIDDEN_SCOPE',
  ENVIRONMENT_MISMATCH: 'FORBIDDEN_SCOPE',
  IP_NOT_ALLOWED: 'FORBIDDEN_IP',
  KEY_EXPIRED: 'EXPIRED',
  KEY_REVOKED: 'REVOKED',
  SECRET_CLOSED: 'REVOKED',
  UNKNOWN_KEY: 'INVALID_SECRET',
  UPSTREAM_UNAVAILABLE: 'UPSTREAM_ERROR',
  UPSTREAM_TIMEOUT: 'UPSTREAM_ERROR',
};

/**
 * The outcome of a call of a known key: the gateway's problem code if it refused or failed it, else
 * the upstream's status (5xx is `UPSTREAM_ERROR`). Null for refusals that are no verdict on the key
 * (a malformed request, a missing route): they are not counted against it.
 */
export function outcomeOf(problem: string | undefined, status: number): CallOutcome | null {
  if (problem !== undefined) return OUTCOME_OF_PROBLEM[problem] ?? null;
  return status >= 500 ? 'UPSTREAM_ERROR' : 'VALID';
}

/** A usage period: a month `2026-11`, an ISO week `2026-W48` or a day `2026-11-28` (UTC). */
export const UsagePeriodSchema = z
  .string()
  .regex(/^\d{4}-(?:\d{2}|W\d{2}|\d{2}-\d{2})$/, 'a period such as 2026-11, 2026-W48 or 2026-11-28')
  .transform((value, ctx) => {
    const span = periodSpanOf(value);
    if (span === null) {
      ctx.addIssue({ code: 'custom', message: `${value} is not a month, ISO week or day` });
      return z.NEVER;
    }
    return span;
  });

/** A period's UTC days, `[from, to)` as YYYY-MM-DD. */
export interface PeriodSpan {
  period: string;
  /** First day, inclusive. */
  from: string;
  /** Day after the last, exclusive. */
  to: string;
}

const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The days of a period, or null when it names none (month 13, week 54, February 30th). */
export function periodSpanOf(period: string): PeriodSpan | null {
  const week = /^(\d{4})-W(\d{2})$/.exec(period);
  if (week) {
    const year = Number(week[1]);
    const n = Number(week[2]);
    // ISO week 1 holds January 4th; weeks start on Monday.
    const jan4 = Date.UTC(year, 0, 4);
    const week1 = jan4 - ((new Date(jan4).getUTCDay() + 6) % 7) * DAY_MS;
    const start = week1 + (n - 1) * 7 * DAY_MS;
    // December 28th always lies in the last ISO week of its year.
    const weeksInYear = isoWeekOf(Date.UTC(year, 11, 28));
    if (n < 1 || n > weeksInYear) return null;
    return { period, from: dayOf(start), to: dayOf(start + 7 * DAY_MS) };
  }
  const month = /^(\d{4})-(\d{2})$/.exec(period);
  if (month) {
    const m = Number(month[2]);
    if (m < 1 || m > 12) return null;
    const year = Number(month[1]);
    return { period, from: dayOf(Date.UTC(year, m - 1, 1)), to: dayOf(Date.UTC(year, m, 1)) };
  }
  const ms = Date.parse(`${period}T00:00:00.000Z`);
  if (!Number.isFinite(ms) || dayOf(ms) !== period) return null;
  return { period, from: period, to: dayOf(ms + DAY_MS) };
}

/** The ISO week number of a UTC instant. */
function isoWeekOf(ms: number): number {
  const date = new Date(ms);
  const thursday = ms - ((date.getUTCDay() + 6) % 7) * DAY_MS + 3 * DAY_MS;
  const yearStart = Date.UTC(new Date(thursday).getUTCFullYear(), 0, 1);
  return Math.floor((thursday - yearStart) / (7 * DAY_MS)) + 1;
}
