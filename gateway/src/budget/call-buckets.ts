import { type AnalyticsGranularity, BUCKET_MS, type CallOutcome } from '@keygate/contracts/gateway';
import type { BudgetUsageRow } from './usage-meter.ts';

/**
 * A flush's count of one subject (a key or an identity), environment, outcome and minute: what the
 * usage meter writes. A store adds it to the minute, hour and day buckets and to billing's day.
 */
export interface CallUsageRow {
  subject: string;
  environment: string;
  outcome: CallOutcome;
  /** The minute's start (epoch ms). */
  minute: number;
  calls: number;
  cost: number;
}

/** The calls and cost of a subject in one bucket, environment and outcome. */
export interface CallBucket {
  /** The bucket's start (epoch ms). */
  start: number;
  environment: string;
  outcome: CallOutcome;
  calls: number;
  cost: number;
}

/** How long buckets of each granularity are kept (ms). */
export type BucketRetention = Record<AnalyticsGranularity, number>;

/** Minutes 48 hours, hours 90 days, days 400 days (KEYGATE_ANALYTICS_*_RETENTION_*). */
export const DEFAULT_BUCKET_RETENTION: BucketRetention = Object.freeze({
  minute: 48 * 3_600_000,
  hour: 90 * 86_400_000,
  day: 400 * 86_400_000,
});

/** The start of the bucket of `granularity` that holds `ms` (UTC). */
export const bucketStartOf = (ms: number, granularity: AnalyticsGranularity): number =>
  ms - (ms % BUCKET_MS[granularity]);

/** The UTC day (YYYY-MM-DD) of an instant. */
export const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** A flush's minute rows summed per subject, day and outcome, as billing keeps them. */
export function billingRowsOf(rows: CallUsageRow[]): BudgetUsageRow[] {
  const days = new Map<string, BudgetUsageRow>();
  for (const row of rows) {
    const day = dayOf(row.minute);
    const id = `${row.subject}\n${day}\n${row.outcome}`;
    const sum = days.get(id);
    if (sum) {
      sum.calls += row.calls;
      sum.cost += row.cost;
    } else
      days.set(id, { subject: row.subject, day, outcome: row.outcome, calls: row.calls, cost: row.cost });
  }
  return [...days.values()];
}

/** Where calls over time are kept: written in flushes, read per subject, pruned by age. */
export interface CallBucketStore {
  /**
   * Adds a flush's minute rows to the minute, hour and day buckets and to billing usage (per day),
   * summing into existing ones, all or nothing; a retry of the same `flushId` counts once.
   */
  addCallUsage(rows: CallUsageRow[], flushId: string): Promise<void>;
  /** A subject's buckets of one granularity starting in [fromMs, toMs), any order. */
  readCallBuckets(
    subject: string,
    granularity: AnalyticsGranularity,
    fromMs: number,
    toMs: number,
  ): Promise<CallBucket[]>;
  /**
   * Deletes the buckets that started before each granularity's bound (epoch ms); returns how many
   * went (a store whose buckets expire by themselves returns 0).
   */
  pruneCallBuckets(before: Record<AnalyticsGranularity, number>): Promise<number>;
}
