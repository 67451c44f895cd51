import type { QuotaPeriod } from './budget-types.ts';

const DAY_MS = 86_400_000;

/** The current UTC day, ISO week and month as usage periods: `2026-11-28`, `2026-W48`, `2026-11`. */
export function currentPeriods(nowMs = Date.now()): Record<QuotaPeriod, string> {
  const day = new Date(nowMs).toISOString().slice(0, 10);
  // An ISO week belongs to the year of its Thursday (weeks start on Monday).
  const weekday = (new Date(nowMs).getUTCDay() + 6) % 7;
  const thursday = new Date(nowMs - weekday * DAY_MS + 3 * DAY_MS);
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * DAY_MS)) + 1;
  return { day, week: `${year}-W${String(week).padStart(2, '0')}`, month: day.slice(0, 7) };
}

/** The months of the billing export's choice: this one and the `count - 1` before it, newest first. */
export function recentMonths(count: number, nowMs = Date.now()): string[] {
  const now = new Date(nowMs);
  return Array.from({ length: count }, (_, back) =>
    new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1)).toISOString().slice(0, 7),
  );
}

/** How a quota's period reads in a sentence. */
export const PERIOD_LABELS: Record<QuotaPeriod, string> = {
  day: 'today (UTC)',
  week: 'this week',
  month: 'this month',
};

/** One quota bar: what was spent of it in its current period, and how that reads. */
export interface QuotaBar {
  period: QuotaPeriod;
  used: number;
  limit: number;
  /** Whole per cent spent, capped at 100. */
  percent: number;
  text: string;
}

/** The bar of a quota of `limit` per `period` with `used` cost spent in the current one. */
export function quotaBarOf(period: QuotaPeriod, limit: number, used: number): QuotaBar {
  const percent = Math.min(100, Math.floor((used / limit) * 100));
  const count = (n: number) => n.toLocaleString('en-GB');
  return {
    period,
    used,
    limit,
    percent,
    text: `${count(used)} of ${count(limit)} used ${PERIOD_LABELS[period]} (${percent}%), ${count(Math.max(0, limit - used))} left`,
  };
}
