import { Counter, Gauge, Registry } from 'prom-client';
import { createLightHistogram, type LightHistogram } from './light-histogram.ts';

/** The gateway's Prometheus metrics, in a registry of their own (one per app instance). */
export interface GatewayMetrics {
  readonly registry: Registry;
  requests: Counter<'rule' | 'environment' | 'status'>;
  /**
   * Adds one to `requests{rule, environment, status}` in a plain number per series; prom-client
   * receives the sums when scraped (its `inc(labels)` hashes the labels on every call).
   */
  countRequest(rule: string, environment: string, status: number): void;
  authFailures: Counter<'reason'>;
  rateLimited: Counter<string>;
  verifications: Counter<'result'>;
  verificationsRefused: Counter<'reason'>;
  /** Secrets verified by their keyed tag alone, without argon2. */
  tagVerifications: Counter<string>;
  /** Refusals the negative cache holds, read at scrape time from `observeNegativeCache`'s source. */
  negativeCacheEntries: Gauge<string>;
  /** Sets where `negativeCacheEntries` reads its value when scraped. */
  observeNegativeCache(read: () => number): void;
  authCache: Counter<'result'>;
  /** Adds one to `authCache{result="hit"}` in a plain number; prom-client receives the sum when scraped. */
  countAuthCacheHit(): void;
  /** `keygate_upstream_duration_seconds`, observed with label values `[upstream, environment, outcome]`. */
  upstreamDuration: LightHistogram;
  usageLogsDropped: Counter<string>;
  usageBucketsDropped: Counter<string>;
  usageFlushFailures: Counter<string>;
  /** Present only when the gateway runs on Redis. */
  redis?: RedisMetrics;
}

/** Metrics of a gateway sharing its state through Redis. */
export interface RedisMetrics {
  /** 1 while the store's Redis connection is ready; set at scrape time. */
  up: Gauge<string>;
  /** Failed Redis calls, by store method. */
  errors: Counter<'operation'>;
  /** 1 while the last rate-limit call was decided by this instance's in-memory insurance limiter. */
  fallbackActive: Gauge<string>;
  /** Rate-limit calls the insurance limiter decided. */
  fallbacks: Counter<string>;
  /** Per-request key version reads, by result (current, changed, stale, unavailable). */
  versionChecks: Counter<'result'>;
}

/** Creates every metric in a fresh registry; with `redis`, the Redis series too (`isRedisUp` read at scrape). */
export function createMetrics(redis?: { isRedisUp(): boolean }): GatewayMetrics {
  const registry = new Registry();
  const registers = [registry];
  /** The series the last request was counted in (series are never removed from requestSeries). */
  let lastSeries: {
    rule: string;
    environment: string;
    status: number;
    series: { labels: Record<'rule' | 'environment' | 'status', string>; pending: number };
  } | null = null;
  let readNegativeEntries = () => 0;
  /** Cache hits (one per request with a known token) since the last scrape. */
  let pendingCacheHits = 0;
  const requestSeries = new Map<
    string,
    { labels: Record<'rule' | 'environment' | 'status', string>; pending: number }
  >();
  return {
    redis: redis && createRedisMetrics(registers, redis.isRedisUp),
    registry,
    requests: new Counter({
      name: 'keygate_requests_total',
      help: 'Requests answered, by route rule, key environment and status.',
      labelNames: ['rule', 'environment', 'status'] as const,
      registers,
      collect() {
        for (const series of requestSeries.values()) {
          if (series.pending === 0) continue;
          this.inc(series.labels, series.pending);
          series.pending = 0;
        }
      },
    }),
    countRequest(rule, environment, status) {
      // Consecutive requests mostly share their series: it is found again without building its id.
      const last = lastSeries;
      if (last !== null && last.status === status && last.rule === rule && last.environment === environment) {
        last.series.pending++;
        return;
      }
      const id = `${status} ${environment} ${rule}`;
      let series = requestSeries.get(id);
      if (series) series.pending++;
      else {
        series = { labels: { rule, environment, status: String(status) }, pending: 1 };
        requestSeries.set(id, series);
      }
      lastSeries = { rule, environment, status, series };
    },
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
      help: 'argon2 verifications not attempted: throttled (too many failures for one untagged lookup), busy (concurrency cap) or tag_mismatch (a wrong secret refused by its keyed tag).',
      labelNames: ['reason'] as const,
      registers,
    }),
    tagVerifications: new Counter({
      name: 'keygate_tag_verifications_total',
      help: 'Secrets verified by their keyed tag alone (a tag of this deployment that matched), without argon2.',
      registers,
    }),
    negativeCacheEntries: new Gauge({
      name: 'keygate_negative_cache_entries',
      help: 'Refused tokens and unknown lookups remembered by this instance (bounded by KEYGATE_NEGATIVE_CACHE_MAX_ENTRIES).',
      registers,
      collect() {
        this.set(readNegativeEntries());
      },
    }),
    observeNegativeCache(read) {
      readNegativeEntries = read;
    },
    authCache: new Counter({
      name: 'keygate_auth_cache_lookups_total',
      help: 'Token fingerprint cache lookups, by result (hit or miss).',
      labelNames: ['result'] as const,
      registers,
      collect() {
        if (pendingCacheHits === 0) return;
        this.inc({ result: 'hit' }, pendingCacheHits);
        pendingCacheHits = 0;
      },
    }),
    countAuthCacheHit() {
      pendingCacheHits++;
    },
    upstreamDuration: createLightHistogram({
      name: 'keygate_upstream_duration_seconds',
      help: 'Time from proxying a request to the upstream response finishing.',
      labelNames: ['upstream', 'environment', 'outcome'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    usageLogsDropped: new Counter({
      name: 'keygate_usage_log_dropped_total',
      help: 'API log lines dropped because the buffer was full.',
      registers,
    }),
    usageBucketsDropped: new Counter({
      name: 'keygate_usage_buckets_dropped_total',
      help: 'Usage buckets dropped because too many were waiting for a flush (store unreachable).',
      registers,
    }),
    usageFlushFailures: new Counter({
      name: 'keygate_usage_flush_failures_total',
      help: 'Usage flushes that failed and were retried later.',
      registers,
    }),
  };
}

function createRedisMetrics(registers: Registry[], isRedisUp: () => boolean): RedisMetrics {
  return {
    up: new Gauge({
      name: 'keygate_redis_up',
      help: '1 while the Redis store connection is ready, else 0.',
      registers,
      collect() {
        this.set(isRedisUp() ? 1 : 0);
      },
    }),
    errors: new Counter({
      name: 'keygate_redis_errors_total',
      help: 'Redis store calls that failed (connection lost, timeout), by store method.',
      labelNames: ['operation'] as const,
      registers,
    }),
    fallbackActive: new Gauge({
      name: 'keygate_rate_limiter_fallback',
      help: '1 while rate limits are decided per instance (Redis unreachable), else 0.',
      registers,
    }),
    fallbacks: new Counter({
      name: 'keygate_rate_limiter_fallback_total',
      help: 'Rate-limit calls decided by the per-instance insurance limiter because Redis did not answer.',
      registers,
    }),
    versionChecks: new Counter({
      name: 'keygate_key_version_checks_total',
      help: 'Per-request key version reads: current, changed (state re-checked), stale (served within the staleness bound while Redis is unreachable), unavailable (503).',
      labelNames: ['result'] as const,
      registers,
    }),
  };
}
