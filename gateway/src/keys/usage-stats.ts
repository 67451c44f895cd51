import type { KeyUsage, LatencyStats, UsageStats } from '@keygate/contracts/gateway';
import type { UsageBucket } from '../model/model.ts';
import { LATENCY_BUCKETS_MS } from '../model/model.ts';

export type { KeyUsage, LatencyStats, UsageStats };

/** The sums of a set of buckets: counts, latency sum, merged histogram and the latest call. */
export interface Merged {
  calls: number;
  errors4xx: number;
  errors5xx: number;
  latencyMsSum: number;
  histogram: number[];
  lastCallAt: string | null;
}

/** Sums a set of usage buckets (any keys, secrets or minutes) into one. */
export function mergeBuckets(buckets: readonly UsageBucket[]): Merged {
  const merged: Merged = {
    calls: 0,
    errors4xx: 0,
    errors5xx: 0,
    latencyMsSum: 0,
    histogram: [],
    lastCallAt: null,
  };
  for (const bucket of buckets) {
    merged.calls += bucket.calls;
    merged.errors4xx += bucket.errors4xx;
    merged.errors5xx += bucket.errors5xx;
    merged.latencyMsSum += bucket.latencyMsSum;
    bucket.latencyHistogram.forEach((count, i) => {
      merged.histogram[i] = (merged.histogram[i] ?? 0) + count;
    });
    if (merged.lastCallAt === null || bucket.lastCallAt > merged.lastCallAt)
      merged.lastCallAt = bucket.lastCallAt;
  }
  return merged;
}

/**
 * The p-quantile (0 < p ≤ 1) of a latency histogram aligned with LATENCY_BUCKETS_MS (slot i counts
 * calls in (bound[i-1], bound[i]], slot 0 from 0, one extra overflow slot above the last bound).
 * The target rank p·N falls in some slot; the value is interpolated linearly inside that slot,
 * assuming its calls are spread evenly between its lower and upper bound. The overflow slot has no
 * upper bound, so a quantile landing there reports the last bound (30 000 ms, a lower bound of the truth).
 * Null for an empty histogram. Rounded to a microsecond.
 */
export function percentileFromHistogram(histogram: readonly number[], p: number): number | null {
  const total = histogram.reduce((sum, count) => sum + count, 0);
  if (total === 0) return null;
  const rank = p * total;
  let before = 0;
  for (let i = 0; i < histogram.length; i++) {
    const count = histogram[i] ?? 0;
    if (count > 0 && before + count >= rank) {
      const lower = i === 0 ? 0 : (LATENCY_BUCKETS_MS[i - 1] ?? LATENCY_BUCKETS_MS.at(-1)!);
      const upper = LATENCY_BUCKETS_MS[i] ?? lower;
      return round(lower + ((upper - lower) * (rank - before)) / count);
    }
    before += count;
  }
  return LATENCY_BUCKETS_MS.at(-1)!;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** p50, p95 and p99 of a latency histogram; null when it counts no call. */
export function percentilesOf(
  histogram: readonly number[],
): { p50: number; p95: number; p99: number } | null {
  const p50 = percentileFromHistogram(histogram, 0.5);
  if (p50 === null) return null;
  return {
    p50,
    p95: percentileFromHistogram(histogram, 0.95)!,
    p99: percentileFromHistogram(histogram, 0.99)!,
  };
}

function statsOf(merged: Merged): UsageStats {
  const percentiles = merged.calls === 0 ? null : percentilesOf(merged.histogram);
  const latencyMs = percentiles && { mean: round(merged.latencyMsSum / merged.calls), ...percentiles };
  const { calls, errors4xx, errors5xx, lastCallAt } = merged;
  return { calls, errors4xx, errors5xx, latencyMs, lastCallAt };
}

/** Totals and per-secret figures of a key's buckets over [fromMs, toMs). */
export function summarizeUsage(
  keyId: string,
  fromMs: number,
  toMs: number,
  buckets: readonly UsageBucket[],
): KeyUsage {
  const bySecret = new Map<string, UsageBucket[]>();
  for (const bucket of buckets) {
    const list = bySecret.get(bucket.secretId) ?? [];
    list.push(bucket);
    bySecret.set(bucket.secretId, list);
  }
  return {
    keyId,
    from: new Date(fromMs).toISOString(),
    to: new Date(toMs).toISOString(),
    totals: statsOf(mergeBuckets(buckets)),
    secrets: [...bySecret].map(([secretId, list]) => ({ secretId, ...statsOf(mergeBuckets(list)) })),
  };
}
