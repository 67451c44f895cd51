import type { UsagePoint, UsageSeries } from '@keygate/contracts/gateway';
import type { UsageBucket } from '../model/model.ts';
import { mergeBuckets, percentilesOf } from './usage-stats.ts';

export type { UsagePoint, UsageSeries };

/** Most points one series has. */
export const MAX_SERIES_POINTS = 288;

/** The steps a series may be cut into when the caller gives none (or one too fine for the range). */
export const SERIES_STEPS_MINUTES = [1, 5, 10, 15, 30, 60, 120, 180, 360, 720, 1440] as const;

const MINUTE_MS = 60_000;

/** Number of steps of `stepMinutes` covering [0, rangeMs). */
function pointCount(rangeMs: number, stepMinutes: number): number {
  return Math.ceil(rangeMs / (stepMinutes * MINUTE_MS));
}

/**
 * The step for a range: `requested` when it keeps the series within MAX_SERIES_POINTS, otherwise
 * (or when none is requested) the smallest step of SERIES_STEPS_MINUTES, at least `requested`, that does.
 */
export function chooseStepMinutes(rangeMs: number, requested?: number): number {
  if (requested !== undefined && pointCount(rangeMs, requested) <= MAX_SERIES_POINTS) return requested;
  const fitting = SERIES_STEPS_MINUTES.find(
    (step) => step >= (requested ?? 0) && pointCount(rangeMs, step) <= MAX_SERIES_POINTS,
  );
  return fitting ?? Math.ceil(rangeMs / MINUTE_MS / MAX_SERIES_POINTS);
}

/**
 * Cuts per-minute usage buckets (any secret) of [fromMs, toMs) into steps of `stepMinutes` starting
 * at `fromMs`: calls, 4xx, 5xx and latency percentiles from the merged histograms. Buckets outside
 * the range are ignored; steps without calls have zero counts and null latency.
 */
export function buildUsageSeries(
  keyId: string,
  fromMs: number,
  toMs: number,
  stepMinutes: number,
  buckets: readonly UsageBucket[],
): UsageSeries {
  const stepMs = stepMinutes * MINUTE_MS;
  const steps = Array.from({ length: pointCount(toMs - fromMs, stepMinutes) }, (): UsageBucket[] => []);
  for (const bucket of buckets) {
    if (bucket.minute < fromMs || bucket.minute >= toMs) continue;
    steps[Math.floor((bucket.minute - fromMs) / stepMs)]?.push(bucket);
  }
  return {
    keyId,
    from: new Date(fromMs).toISOString(),
    to: new Date(toMs).toISOString(),
    stepMinutes,
    points: steps.map((step, i) => {
      const { calls, errors4xx, errors5xx, histogram } = mergeBuckets(step);
      return {
        at: new Date(fromMs + i * stepMs).toISOString(),
        calls,
        errors4xx,
        errors5xx,
        latencyMs: percentilesOf(histogram),
      };
    }),
  };
}
