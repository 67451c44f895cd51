import {
  type AnalyticsGranularity,
  type AnalyticsPoint,
  type AnalyticsQuery,
  type AnalyticsSeries,
  BUCKET_MS,
  CALL_OUTCOMES,
  type CallOutcome,
  MAX_ANALYTICS_BUCKETS,
} from '@keygate/contracts/gateway';
import type { CallBucketStore } from '../budget/call-buckets.ts';
import { validationError } from '../keys/key-input.ts';

// The rules of an analytics range, in order:
// 1. `to` defaults to now, and is rounded up to a bucket boundary (the current bucket is included).
// 2. `from` defaults to 60 minutes, 24 hours or 30 days before `to`, and is rounded down.
// 3. `from` must come before `to`, and the range hold at most MAX_ANALYTICS_BUCKETS buckets: a
//    day of minutes is a sensible chart, a year of minutes is a mistake (422, pick a coarser one).

/** How many buckets a range without `from` spans, per granularity. */
const DEFAULT_BUCKETS: Record<AnalyticsGranularity, number> = { minute: 60, hour: 24, day: 30 };

/** An analytics range in whole buckets: [fromMs, toMs). */
export interface AnalyticsRange {
  granularity: AnalyticsGranularity;
  fromMs: number;
  toMs: number;
}

/** The range a query asks for, in whole buckets (see the rules above); 422 when it is not one. */
export function resolveRange(query: AnalyticsQuery, nowMs: number): AnalyticsRange {
  const { granularity } = query;
  const size = BUCKET_MS[granularity];
  const to = query.to ?? nowMs;
  const toMs = Math.ceil(to / size) * size;
  const fromMs = Math.floor((query.from ?? toMs - DEFAULT_BUCKETS[granularity] * size) / size) * size;
  if (fromMs >= toMs) throw validationError([{ detail: 'must be before to', pointer: '/from' }]);
  if ((toMs - fromMs) / size > MAX_ANALYTICS_BUCKETS) {
    const detail = `the range holds more than ${MAX_ANALYTICS_BUCKETS} buckets of a ${granularity}; use a coarser granularity`;
    throw validationError([{ detail, pointer: '/granularity' }]);
  }
  return { granularity, fromMs, toMs };
}

/**
 * A subject's (a key's or an identity's) calls over a range, one point per bucket, empty buckets
 * included (a chart needs them), every environment summed; only `outcome` when one is asked.
 */
export async function readAnalytics(
  usage: CallBucketStore,
  subject: string,
  query: AnalyticsQuery,
  nowMs: number,
): Promise<AnalyticsSeries> {
  const range = resolveRange(query, nowMs);
  const { granularity, fromMs, toMs } = range;
  const size = BUCKET_MS[granularity];
  const outcomes: readonly CallOutcome[] = query.outcome ? [query.outcome] : CALL_OUTCOMES;
  const data: AnalyticsPoint[] = [];
  for (let start = fromMs; start < toMs; start += size) {
    const point: AnalyticsPoint = { start: new Date(start).toISOString(), outcomes: {}, cost: 0 };
    for (const outcome of outcomes) point.outcomes[outcome] = 0;
    data.push(point);
  }
  for (const bucket of await usage.readCallBuckets(subject, granularity, fromMs, toMs)) {
    const point = data[(bucket.start - fromMs) / size];
    if (point === undefined || point.outcomes[bucket.outcome] === undefined) continue;
    point.outcomes[bucket.outcome]! += bucket.calls;
    point.cost += bucket.cost;
  }
  return { granularity, from: new Date(fromMs).toISOString(), to: new Date(toMs).toISOString(), data };
}
