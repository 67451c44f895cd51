import {
  type CreditsRefill,
  LIMIT_WINDOW_SECONDS,
  type LimitWindow,
  type QuotaPeriod,
} from '@keygate/contracts/gateway';

/** A window of a rate limit or a quota: `[start, end)` in epoch ms. */
export interface Span {
  start: number;
  end: number;
}

const DAY_MS = 86_400_000;

/** The fixed window of a rate limit holding `nowMs`, aligned to the epoch so every instance agrees on it. */
export function limitWindowOf(window: LimitWindow, nowMs: number): Span {
  const length = LIMIT_WINDOW_SECONDS[window] * 1000;
  const start = nowMs - (nowMs % length);
  return { start, end: start + length };
}

/** The last period computed of each kind: every call of a day, week or month asks for the same one. */
const lastPeriods: Partial<Record<QuotaPeriod, Span>> = {};

/** The calendar period (UTC) holding `nowMs`: a day, an ISO week (from Monday) or a month. */
export function quotaPeriodOf(period: QuotaPeriod, nowMs: number): Span {
  const last = lastPeriods[period];
  if (last !== undefined && last.start <= nowMs && nowMs < last.end) return last;
  const span = Object.freeze(computePeriod(period, nowMs));
  lastPeriods[period] = span;
  return span;
}

function computePeriod(period: QuotaPeriod, nowMs: number): Span {
  const date = new Date(nowMs);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  const dayStart = Date.UTC(year, month, date.getUTCDate());
  if (period === 'day') return { start: dayStart, end: dayStart + DAY_MS };
  if (period === 'week') {
    const sinceMonday = (date.getUTCDay() + 6) % 7;
    const start = dayStart - sinceMonday * DAY_MS;
    return { start, end: start + 7 * DAY_MS };
  }
  return { start: Date.UTC(year, month, 1), end: Date.UTC(year, month + 1, 1) };
}

/** 00:00 UTC of `day` in the month of (year, month), or of the month's last day when it is shorter. */
function monthlyRefillAt(year: number, month: number, day: number): number {
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(year, month, Math.min(day, lastDay));
}

/**
 * The refill instants around `nowMs`: the last one at or before it, and the next one after it.
 * Daily refills happen at 00:00 UTC; monthly ones at 00:00 UTC of the refill day.
 */
/**
 * The time every one of `spans` holds (the latest start to the earliest end): while `nowMs` stays in
 * it, none of them has moved on. Unbounded for no spans.
 */
export function commonSpanOf(spans: readonly Span[]): Span {
  let start = Number.NEGATIVE_INFINITY;
  let end = Number.POSITIVE_INFINITY;
  for (const span of spans) {
    start = Math.max(start, span.start);
    end = Math.min(end, span.end);
  }
  return { start, end };
}

export function refillSpanOf(refill: CreditsRefill, nowMs: number): Span {
  if (refill.interval === 'daily') return quotaPeriodOf('day', nowMs);
  const day = refill.day ?? 1;
  const last = lastMonthlyRefills.get(day);
  if (last !== undefined && last.start <= nowMs && nowMs < last.end) return last;
  const span = Object.freeze(monthlyRefillSpanOf(day, nowMs));
  lastMonthlyRefills.set(day, span);
  return span;
}

/** The last monthly refill span computed for each refill day (1–31). */
const lastMonthlyRefills = new Map<number, Span>();

function monthlyRefillSpanOf(day: number, nowMs: number): Span {
  const date = new Date(nowMs);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  const thisMonth = monthlyRefillAt(year, month, day);
  if (thisMonth <= nowMs) return { start: thisMonth, end: monthlyRefillAt(year, month + 1, day) };
  return { start: monthlyRefillAt(year, month - 1, day), end: thisMonth };
}

/** Whole seconds from `nowMs` until `atMs`, at least 1 (the IETF headers' `t` and `Retry-After`). */
export function secondsUntil(atMs: number, nowMs: number): number {
  return Math.max(1, Math.ceil((atMs - nowMs) / 1000));
}
