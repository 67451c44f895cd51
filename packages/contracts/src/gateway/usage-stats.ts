/** Latency figures of a set of calls, in milliseconds; null without calls. */
export interface LatencyStats {
  mean: number;
  p50: number;
  p95: number;
  p99: number;
}

/** Call counts and latency of a set of buckets. */
export interface UsageStats {
  calls: number;
  errors4xx: number;
  errors5xx: number;
  latencyMs: LatencyStats | null;
  lastCallAt: string | null;
}

/** A key's usage in [from, to): totals and one entry per secret that saw traffic. */
export interface KeyUsage {
  keyId: string;
  from: string;
  to: string;
  totals: UsageStats;
  secrets: Array<UsageStats & { secretId: string }>;
}
