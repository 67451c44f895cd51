import { z } from 'zod';
import { CALL_OUTCOMES, type CallOutcome } from './outcomes.ts';

/** The sizes of analytics buckets: a minute, an hour, a UTC day. */
export const ANALYTICS_GRANULARITIES = ['minute', 'hour', 'day'] as const;

export type AnalyticsGranularity = (typeof ANALYTICS_GRANULARITIES)[number];

/** The length of one bucket of each granularity, in ms. */
export const BUCKET_MS: Record<AnalyticsGranularity, number> = {
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
};

/** The most buckets one analytics answer holds (48 hours of minutes fit; 400 days too). */
export const MAX_ANALYTICS_BUCKETS = 2_880;

const AnalyticsInstantSchema = z.iso
  .datetime({ offset: true, error: 'must be an ISO 8601 date-time such as 2026-11-28T00:00:00Z' })
  .transform((value) => Date.parse(value));

/**
 * `GET …/analytics?from&to&granularity&outcome`: `[from, to)` widened to whole buckets. Defaults:
 * granularity `hour`, `to` now, `from` one day (minutes: an hour; days: 30 days) before `to`.
 */
export const AnalyticsQuerySchema = z.object({
  from: AnalyticsInstantSchema.optional(),
  to: AnalyticsInstantSchema.optional(),
  granularity: z.enum(ANALYTICS_GRANULARITIES).default('hour'),
  outcome: z.enum(CALL_OUTCOMES).optional(),
});

export type AnalyticsQuery = z.infer<typeof AnalyticsQuerySchema>;

/** One bucket of an analytics series: its start and the calls of each outcome in it. */
export interface AnalyticsPoint {
  /** The bucket's first instant (ISO 8601, UTC). */
  start: string;
  /** Calls per outcome: every outcome (or only the asked one), 0 when there were none. */
  outcomes: Partial<Record<CallOutcome, number>>;
  /** Cost spent by the bucket's calls (the budget's units). */
  cost: number;
}

/** A key's or an identity's calls over time, by outcome. */
export interface AnalyticsSeries {
  granularity: AnalyticsGranularity;
  /** The first bucket's start (ISO 8601). */
  from: string;
  /** The end of the last bucket (ISO 8601, exclusive). */
  to: string;
  data: AnalyticsPoint[];
}
