import { Counter, Histogram, Registry } from 'prom-client';

/** The gateway's Prometheus metrics, in a registry of their own (one per app instance). */
export interface GatewayMetrics {
  readonly registry: Registry;
  requests: Counter<'rule' | 'environment' | 'status'>;
  authFailures: Counter<'reason'>;
  rateLimited: Counter<string>;
  verifications: Counter<'result'>;
  verificationsRefused: Counter<'reason'>;
  authCache: Counter<'result'>;
  upstreamDuration: Histogram<'upstream' | 'environment' | 'outcome'>;
  usageLogsDropped: Counter<string>;
  usageFlushFailures: Counter<string>;
}

/** Creates every metric in a fresh registry. */
export function createMetrics(): GatewayMetrics {
  const registry = new Registry();
  const registers = [registry];
  return {
    registry,
    requests: new Counter({
      name: 'keygate_requests_total',
      help: 'Requests answered, by route rule, key environment and status.',
      labelNames: ['rule', 'environment', 'status'] as const,
      registers,
    }),
    authFailures: new Counter({
      name: 'keygate_auth_failures_total',
      help: 'Requests refused by the key pipeline, by reason (error code).',
      labelNames: ['reason'] as const,
      registers,
    }),
    rateLimited: new Counter({
      name: 'keygate_rate_limited_total',
      help: 'Requests refused with 429.',
      registers,
    }),
    verifications: new Counter({
      name: 'keygate_argon2_verifications_total',
      help: 'argon2 verifications performed, by result.',
      labelNames: ['result'] as const,
      registers,
    }),
    verificationsRefused: new Counter({
      name: 'keygate_argon2_verifications_refused_total',
      help: 'argon2 verifications not attempted: throttled (too many failures for one lookup) or busy (concurrency cap).',
      labelNames: ['reason'] as const,
      registers,
    }),
    authCache: new Counter({
      name: 'keygate_auth_cache_lookups_total',
      help: 'Token fingerprint cache lookups, by result (hit or miss).',
      labelNames: ['result'] as const,
      registers,
    }),
    upstreamDuration: new Histogram({
      name: 'keygate_upstream_duration_seconds',
      help: 'Time from proxying a request to the upstream response finishing.',
      labelNames: ['upstream', 'environment', 'outcome'] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    usageLogsDropped: new Counter({
      name: 'keygate_usage_log_dropped_total',
      help: 'API log lines dropped because the buffer was full.',
      registers,
    }),
    usageFlushFailures: new Counter({
      name: 'keygate_usage_flush_failures_total',
      help: 'Usage flushes that failed and were retried later.',
      registers,
    }),
  };
}
