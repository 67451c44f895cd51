/** One step of a usage series. `latencyMs` is null for a step without calls. */
export interface UsagePoint {
  /** Start of the step, ISO. */
  at: string;
  calls: number;
  errors4xx: number;
  errors5xx: number;
  latencyMs: { p50: number; p95: number; p99: number } | null;
}

/** A key's usage over [from, to) in steps of `stepMinutes`, oldest first, every step present. */
export interface UsageSeries {
  keyId: string;
  from: string;
  to: string;
  stepMinutes: number;
  points: UsagePoint[];
}
