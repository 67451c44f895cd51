import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_RETRY_SCHEDULE_SECONDS } from '@keygate/contracts/commerce';
import { type TracingConfig, TracingEnvSchema, tracingConfigOf } from '@keygate/tracing';
import type { JWK } from 'jose';
import { z } from 'zod';
import { isAddressOrCidr } from './auth/ip-rules.ts';
import type { BucketRetention } from './budget/call-buckets.ts';
import { parseTagKey, SHARED_TAG_KEY_REQUIRED } from './keys/secret-tag.ts';
import { applyUpstreamOverrides, type RouteTable, RouteTableSchema } from './routes/route-table.ts';
import { RedisEnvSchema, type RedisTarget, redisTargetOf } from './store/redis/target.ts';

/** The route table shipped with the package, used when KEYGATE_ROUTES_FILE is unset. */
export const DEFAULT_ROUTES_FILE = fileURLToPath(new URL('../routes.json', import.meta.url));

/** The OpenAPI document of the shipped stack (gateway + commerce), used when KEYGATE_OPENAPI_FILE is unset. */
export const DEFAULT_OPENAPI_FILE = fileURLToPath(
  new URL('../../packages/openapi/openapi.json', import.meta.url),
);

/** The built admin interface, used when KEYGATE_ADMIN_UI_DIR is unset. */
export const DEFAULT_ADMIN_UI_DIR = fileURLToPath(new URL('../../packages/admin-ui/dist', import.meta.url));

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const wholeNumber = z
  .string()
  .regex(/^[1-9]\d*$/, 'must be a positive whole number')
  .transform(Number);
const commaList = (text: string) =>
  text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);

/** Comma-separated seconds before each alert attempt, each 0..604800, the first 0. */
const AlertScheduleSchema = z
  .string()
  .transform((value) => value.split(',').map((part) => (part.trim() === '' ? Number.NaN : Number(part))))
  .refine(
    (delays) => delays.every((d) => Number.isFinite(d) && d >= 0 && d <= 604_800),
    'must be comma-separated seconds, each 0..604800',
  )
  .refine((delays) => delays.length <= 50, 'must have at most 50 entries')
  .refine((delays) => delays[0] === 0, 'must start with 0 (the first attempt is immediate)');

const EnvSchema = z.object({
  GATEWAY_PORT: z.coerce.number().int().min(0).max(65_535).default(8080),
  GATEWAY_HOST: z.string().min(1).default('127.0.0.1'),
  KEYGATE_DATA_DIR: z.string().min(1).default('./data'),
  KEYGATE_ROUTES_FILE: z.string().min(1).optional(),
  KEYGATE_TRUSTED_PROXIES: z
    .string()
    .default('')
    .transform(commaList)
    .refine((list) => list.every(isAddressOrCidr), 'must be a comma list of IP addresses or CIDR ranges'),
  KEYGATE_IDENTITY_KEY_FILE: z.string().min(1).optional(),
  KEYGATE_IDENTITY_PRIVATE_JWK: z.string().optional(),
  KEYGATE_SECRET_TAG_KEY: z
    .string()
    .optional()
    .refine(
      (text) => text === undefined || parseTagKey(text) !== null,
      'must be base64url (or base64) of at least 32 random bytes',
    ),
  KEYGATE_SECRET_TAG_KEY_FILE: z.string().min(1).optional(),
  KEYGATE_IDENTITY_BINDING: z
    .enum(['key', 'request'], { error: "must be 'key' or 'request'" })
    .default('key'),
  KEYGATE_IDENTITY_TTL_SECONDS: z
    .string()
    .regex(/^\d+$/, 'must be a whole number of seconds')
    .transform(Number)
    .pipe(z.number().min(10, 'must be at least 10 seconds').max(300, 'must be at most 300 seconds'))
    .default(60),
  KEYGATE_EXPIRY_REMINDER_DAYS: z
    .string()
    .default('7,1')
    .transform(commaList)
    .pipe(z.array(wholeNumber).min(1))
    .transform((days) => [...new Set(days)].sort((a, b) => b - a)),
  KEYGATE_MAX_OVERLAP_DAYS: positiveInt(7),
  KEYGATE_DEFAULT_RATE_LIMIT: z
    .string()
    .default('600')
    .transform((text) => text.replace(/\s*\/\s*min(ute)?$/i, ''))
    .pipe(wholeNumber),
  KEYGATE_USAGE_FLUSH_MS: positiveInt(2000),
  KEYGATE_LOG_RETENTION_DAYS: positiveInt(14),
  KEYGATE_USAGE_RETENTION_DAYS: positiveInt(90),
  KEYGATE_ANALYTICS_MINUTE_RETENTION_HOURS: positiveInt(48),
  KEYGATE_ANALYTICS_HOUR_RETENTION_DAYS: positiveInt(90),
  KEYGATE_ANALYTICS_DAY_RETENTION_DAYS: positiveInt(400),
  KEYGATE_ANALYTICS: z.enum(['on', 'off'], { error: "must be 'on' or 'off'" }).default('on'),
  KEYGATE_MAX_CONCURRENT_VERIFICATIONS: positiveInt(2 * availableParallelism()),
  KEYGATE_UPSTREAM_TIMEOUT_MS: positiveInt(30_000),
  KEYGATE_UPSTREAM_CONNECTIONS: positiveInt(256),
  KEYGATE_KEY_MAX_CONCURRENT: positiveInt(32),
  KEYGATE_REQUEST_TIMEOUT_MS: positiveInt(30_000),
  KEYGATE_BODY_TIMEOUT_MS: positiveInt(10_000),
  KEYGATE_BODY_MIN_BYTES_PER_SECOND: positiveInt(1024),
  KEYGATE_BUFFERED_BODY_MAX_BYTES: positiveInt(64 * 1024),
  KEYGATE_CACHE_MAX_ENTRIES: positiveInt(20_000),
  KEYGATE_NEGATIVE_CACHE_MAX_ENTRIES: positiveInt(10_000),
  KEYGATE_NEGATIVE_CACHE_TTL_MS: positiveInt(60_000),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  KEYGATE_REDIS_PREFIX: z
    .string()
    .regex(/^[\w:.-]{1,64}$/, 'must be 1-64 letters, digits, `_`, `-`, `.` or `:`')
    .default('keygate:'),
  KEYGATE_REDIS_STALENESS_MS: positiveInt(10_000),
  KEYGATE_REDIS_CONNECT_TIMEOUT_MS: positiveInt(5000),
  KEYGATE_REDIS_COMMAND_TIMEOUT_MS: positiveInt(1000),
  KEYGATE_REDIS_CIRCUIT_TIMEOUTS: positiveInt(3),
  KEYGATE_REDIS_CIRCUIT_PROBE_MS: positiveInt(500),
  GATEWAY_KEEP_ALIVE_TIMEOUT_MS: positiveInt(65_000),
  KEYGATE_SHUTDOWN_GRACE_MS: positiveInt(10_000),
  KEYGATE_POLICIES: z.enum(['on', 'off'], { error: "must be 'on' or 'off'" }).default('on'),
  KEYGATE_BENCH_MODE: z.enum(['0', '1'], { error: "must be '0' or '1'" }).default('0'),
  KEYGATE_API_LOG: z.enum(['on', 'off'], { error: "must be 'on' or 'off'" }).default('on'),
  KEYGATE_TRACE_INCOMING: z
    .enum(['continue', 'link'], { error: "must be 'continue' or 'link'" })
    .default('continue'),
  KEYGATE_OPENAPI_FILE: z.string().min(1).optional(),
  KEYGATE_ADMIN_UI_DIR: z.string().min(1).optional(),
  KEYGATE_ADMIN_SESSION_IDLE_MINUTES: positiveInt(30),
  KEYGATE_ADMIN_SESSION_MAX_HOURS: positiveInt(12),
  KEYGATE_ADMIN_COOKIE_SECURE: z
    .enum(['auto', 'true', 'false'], { error: "must be 'auto', 'true' or 'false'" })
    .default('auto'),
  KEYGATE_ADMIN_LOGIN_MAX_FAILURES: positiveInt(5),
  KEYGATE_ADMIN_LOGIN_WINDOW_MINUTES: positiveInt(15),
  KEYGATE_WEBHOOKS_ALLOW_PRIVATE: z
    .enum(['true', 'false'], { error: "must be 'true' or 'false'" })
    .default('false')
    .transform((value) => value === 'true'),
  KEYGATE_ALERTS_RETRY_SCHEDULE: AlertScheduleSchema.default([...DEFAULT_RETRY_SCHEDULE_SECONDS]),
  KEYGATE_ALERTS_TIMEOUT_MS: positiveInt(10_000),
  KEYGATE_ALERTS_CONCURRENCY: positiveInt(8),
  KEYGATE_ALERTS_POLL_MS: positiveInt(1000),
  KEYGATE_SWEEP_INTERVAL_MS: positiveInt(60_000),
  KEYGATE_TEST_CLOCK_OFFSET_MS: z.coerce.number().int().default(0),
});

/** Why KEYGATE_POLICIES=off alone is refused. */
const POLICIES_OFF_REFUSED =
  'KEYGATE_POLICIES: off turns off key checks, rate limits and usage (a benchmarking mode); ' +
  'set KEYGATE_BENCH_MODE=1 too to run it, never in production';

/** Why KEYGATE_API_LOG=off alone is refused. */
const API_LOG_OFF_REFUSED =
  'KEYGATE_API_LOG: off keeps no API log lines (a benchmarking mode, to measure what they cost); ' +
  'set KEYGATE_BENCH_MODE=1 too to run it, never in production';

/** Why KEYGATE_ANALYTICS=off alone is refused. */
const ANALYTICS_OFF_REFUSED =
  'KEYGATE_ANALYTICS: off counts no call outcomes (no analytics, no billing usage; a benchmarking ' +
  'mode, to measure what counting costs); set KEYGATE_BENCH_MODE=1 too to run it, never in production';

/** A private identity key: P-256 (ES256, what new keys are) or Ed25519 (EdDSA). */
const PrivateJwkSchema = z.union(
  [
    z.looseObject({
      kty: z.literal('EC'),
      crv: z.literal('P-256'),
      d: z.string().min(1),
      x: z.string().min(1),
      y: z.string().min(1),
      kid: z.string().optional(),
    }),
    z.looseObject({
      kty: z.literal('OKP'),
      crv: z.literal('Ed25519'),
      d: z.string().min(1),
      x: z.string().min(1),
      kid: z.string().optional(),
    }),
  ],
  { error: 'must be a private P-256 (kty EC) or Ed25519 (kty OKP) JWK with d and x (and y for P-256)' },
);

/** Gateway configuration, validated once at start and frozen. */
export interface GatewayConfig {
  port: number;
  host: string;
  dataDir: string;
  /** `${dataDir}/gateway.db` */
  databaseFile: string;
  routesFile: string;
  /** The validated route table with URL overrides applied. */
  routes: RouteTable;
  /** Addresses and CIDR ranges whose `X-Forwarded-For` is believed. */
  trustedProxies: string[];
  identityKeyFile: string;
  /** From KEYGATE_IDENTITY_PRIVATE_JWK; wins over the key file. */
  identityPrivateJwk: JWK | null;
  /**
   * The key of the secrets' fast tags (keys/secret-tag.ts), from KEYGATE_SECRET_TAG_KEY; wins over
   * the key file. Every instance sharing a store (and the CLI) needs the same one.
   */
  secretTagKey: Buffer | null;
  /** `${dataDir}/secret-tag-key`, created on first start when no key is configured. */
  secretTagKeyFile: string;
  /**
   * `key`: one assertion per (key, secret, key version, environment, audience), reused until less
   * than half its life is left; `request`: one per request, bound to its method, path and request id.
   * See docs/identity-binding.md for the trade-off.
   */
  identityBinding: 'key' | 'request';
  /** Lifetime of an identity assertion (`exp` − `iat`), 10–300 s. */
  identityTtlSeconds: number;
  /** Reminder lead times in days, largest first. */
  expiryReminderDays: number[];
  maxOverlapDays: number;
  defaultRateLimitPerMinute: number;
  usageFlushMs: number;
  /** Days API log lines are kept. */
  logRetentionDays: number;
  /** Days per-minute usage buckets are kept. */
  usageRetentionDays: number;
  /** How long analytics buckets are kept, per granularity (ms): minutes, hours, days. */
  analyticsRetention: BucketRetention;
  /**
   * `off` is a benchmarking mode: no call outcome is counted (no analytics, no billing usage), so
   * `pnpm bench` can show what counting costs a request. Accepted only with KEYGATE_BENCH_MODE=1.
   */
  analytics: 'on' | 'off';
  /** argon2 verifications running at once at most; beyond it requests answer 503 VERIFICATION_BUSY. */
  maxConcurrentVerifications: number;
  upstreamTimeoutMs: number;
  /** Connections kept open to each upstream URL at most; calls beyond wait for one. */
  upstreamConnections: number;
  /**
   * Proxied requests one key may have in flight on this instance; beyond it 429
   * TOO_MANY_CONCURRENT_REQUESTS. Below `upstreamConnections`, so one key never holds the whole pool.
   */
  keyMaxConcurrent: number;
  /** A request (head and body) must have arrived in full within this long (node's requestTimeout), else 408. */
  requestTimeoutMs: number;
  /** A body read before it goes upstream must arrive within this long at most, else 408. */
  bodyTimeoutMs: number;
  /** ... and within one second plus its length at this rate (bytes per second), whichever is sooner. */
  bodyMinBytesPerSecond: number;
  /** Bodies with a Content-Length up to this are read in full before an upstream connection is taken. */
  bufferedBodyMaxBytes: number;
  cacheMaxEntries: number;
  /** Refused tokens and unknown lookups each instance remembers at most (the negative cache's bound). */
  negativeCacheMaxEntries: number;
  /** How long a refusal is remembered; a key created or rotated meanwhile is let in at once anyway. */
  negativeCacheTtlMs: number;
  logLevel: (typeof LOG_LEVELS)[number];
  /**
   * With REDIS_URL (or KEYGATE_REDIS_CLUSTER_NODES, or KEYGATE_REDIS_SENTINELS and
   * KEYGATE_REDIS_SENTINEL_NAME) set, keys, usage, logs, rate limits and invalidations are shared
   * through that Redis: a standalone server's URL, or Sentinel or Cluster settings.
   */
  redisUrl: RedisTarget | null;
  /** Prefix of every Redis key and channel keygate uses (`keygate:`). */
  redisPrefix: string;
  /**
   * While Redis is unreachable, a key already verified here keeps working this long after its
   * version was last read from Redis; then its requests fail closed with 503 STORE_UNAVAILABLE.
   */
  redisStalenessMs: number;
  redisConnectTimeoutMs: number;
  /** A Redis command without an answer after this long fails (a hung or partitioned Redis). */
  redisCommandTimeoutMs: number;
  /** Command timeouts in a row after which Redis counts as frozen and commands fail at once. */
  redisCircuitTimeouts: number;
  /** How often a PING probes a frozen Redis, to close the circuit when it answers. */
  redisCircuitProbeMs: number;
  /** Idle keep-alive connections are kept this long: above any load balancer's idle timeout. */
  keepAliveTimeoutMs: number;
  /** On SIGTERM, in-flight requests get this long to finish before connections are cut. */
  shutdownGraceMs: number;
  /**
   * `off` is a benchmarking mode (`pnpm bench`): no key check, rate limit or usage, no management
   * routes; every proxied route is forwarded by the same proxy code, signed for a fixed test-environment
   * caller. Accepted only together with KEYGATE_BENCH_MODE=1.
   */
  policies: 'on' | 'off';
  /**
   * `off` is a benchmarking mode too: calls are checked, limited and counted as usual, but no API
   * log line is kept, so `pnpm bench` can show what the API log costs a request. Accepted only
   * together with KEYGATE_BENCH_MODE=1.
   */
  apiLog: 'on' | 'off';
  /** How often expired overlaps are closed and expiry reminders written. */
  sweepIntervalMs: number;
  /** Tests only (with KEYGATE_BENCH_MODE=1): ms added to the clock of expiry, reminders and alerts. */
  testClockOffsetMs: number;
  /** Alerts (alerts/): where their webhooks may go and how they are retried (Svix's schedule by default). */
  alerts: {
    allowPrivateAddresses: boolean;
    retryScheduleMs: number[];
    timeoutMs: number;
    concurrency: number;
    pollIntervalMs: number;
  };
  /** OpenTelemetry tracing from the standard OTEL_* variables; null (the SDK never loaded) without an OTLP endpoint. */
  tracing: TracingConfig | null;
  /**
   * A caller's `traceparent`: `continue` its trace (the default), or `link` it from a new root (a
   * gateway facing the public, whose callers must not choose the trace or its sampling).
   */
  traceIncoming: 'continue' | 'link';
  /** The OpenAPI 3.1 document served at `/v2/openapi.json` and rendered at `/docs`. */
  openapiFile: string;
  /** The built admin interface (static files) served at `/admin`. */
  adminUiDir: string;
  /** An admin session ends after this long without a request. */
  adminSessionIdleMinutes: number;
  /** An admin session ends this long after login, however active. */
  adminSessionMaxHours: number;
  /**
   * `Secure` on the admin session cookie: `auto` sets it when the request came over TLS (directly,
   * or `X-Forwarded-Proto: https` from a trusted proxy); `true` always; `false` never.
   */
  adminCookieSecure: 'auto' | 'true' | 'false';
  /** Failed logins per email (and per client IP) within the window before logins are refused with 429. */
  adminLoginMaxFailures: number;
  adminLoginWindowMinutes: number;
}

type Issue = { path: ReadonlyArray<PropertyKey>; message: string };
const describeIssues = (prefix: string, issues: readonly Issue[]) =>
  issues.map(
    (issue) => `${[prefix, ...issue.path].filter((part) => part !== '').join('.')}: ${issue.message}`,
  );

function readRouteTable(file: string, env: Record<string, string | undefined>): RouteTable | string[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return [`KEYGATE_ROUTES_FILE: cannot read ${file} (${(error as Error).message})`];
  }
  const parsed = RouteTableSchema.safeParse(raw);
  if (!parsed.success) return describeIssues(`routes file ${file}`, parsed.error.issues);
  const overridden = RouteTableSchema.safeParse(applyUpstreamOverrides(parsed.data, env));
  if (!overridden.success) return describeIssues('upstream override', overridden.error.issues);
  return overridden.data;
}

function parseJwk(text: string | undefined): JWK | null | string[] {
  if (text === undefined || text.trim() === '') return null;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return ['KEYGATE_IDENTITY_PRIVATE_JWK: is not JSON'];
  }
  const parsed = PrivateJwkSchema.safeParse(raw);
  if (!parsed.success) return describeIssues('KEYGATE_IDENTITY_PRIVATE_JWK', parsed.error.issues);
  return parsed.data as JWK;
}

function deepFreeze<T>(value: T): T {
  // A Buffer (the secret tag key) cannot be frozen: Object.freeze throws on a typed array with elements.
  if (value && typeof value === 'object' && !ArrayBuffer.isView(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** Parses the gateway's environment; throws one line listing every problem, or returns a frozen config. */
export function loadConfig(env: Record<string, string | undefined>): Readonly<GatewayConfig> {
  // An empty variable counts as unset, so `FOO=` falls back to the default instead of failing.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value?.trim()));
  const parsed = EnvSchema.safeParse(present);
  const problems: string[] = parsed.success ? [] : describeIssues('', parsed.error.issues);
  const redis = RedisEnvSchema.safeParse(present);
  if (!redis.success) problems.push(...describeIssues('', redis.error.issues));
  const tracing = TracingEnvSchema.safeParse(present);
  if (!tracing.success) problems.push(...describeIssues('', tracing.error.issues));
  const routesFile = resolve(present.KEYGATE_ROUTES_FILE ?? DEFAULT_ROUTES_FILE);
  const routes = readRouteTable(routesFile, present);
  if (Array.isArray(routes)) problems.push(...routes);
  const jwk = parseJwk(present.KEYGATE_IDENTITY_PRIVATE_JWK);
  if (Array.isArray(jwk)) problems.push(...jwk);
  // Read raw, so the refusal is listed even when another variable failed to parse.
  const policiesRefused = present.KEYGATE_POLICIES === 'off' && present.KEYGATE_BENCH_MODE !== '1';
  if (policiesRefused) problems.push(POLICIES_OFF_REFUSED);
  const apiLogRefused = present.KEYGATE_API_LOG === 'off' && present.KEYGATE_BENCH_MODE !== '1';
  if (apiLogRefused) problems.push(API_LOG_OFF_REFUSED);
  const clockRefused =
    present.KEYGATE_TEST_CLOCK_OFFSET_MS !== undefined && present.KEYGATE_BENCH_MODE !== '1';
  if (clockRefused)
    problems.push('KEYGATE_TEST_CLOCK_OFFSET_MS moves the clock (tests only); set KEYGATE_BENCH_MODE=1 too');
  const analyticsRefused = present.KEYGATE_ANALYTICS === 'off' && present.KEYGATE_BENCH_MODE !== '1';
  if (analyticsRefused) problems.push(ANALYTICS_OFF_REFUSED);
  // Each instance would otherwise make a tag key of its own, and secrets tagged by one would go
  // through argon2 on every other: the cold-start 503s the tags exist to prevent.
  const isShared = redis.success && redisTargetOf(redis.data) !== null;
  const tagKeyMissing =
    isShared &&
    present.KEYGATE_SECRET_TAG_KEY === undefined &&
    present.KEYGATE_SECRET_TAG_KEY_FILE === undefined;
  if (tagKeyMissing) problems.push(SHARED_TAG_KEY_REQUIRED);
  const refused = policiesRefused || apiLogRefused || analyticsRefused || tagKeyMissing || clockRefused;
  if (
    !parsed.success ||
    !redis.success ||
    !tracing.success ||
    Array.isArray(routes) ||
    Array.isArray(jwk) ||
    refused
  ) {
    throw new Error(problems.join('; '));
  }
  const vars = parsed.data;
  const dataDir = resolve(vars.KEYGATE_DATA_DIR);
  return deepFreeze({
    port: vars.GATEWAY_PORT,
    host: vars.GATEWAY_HOST,
    dataDir,
    databaseFile: join(dataDir, 'gateway.db'),
    routesFile,
    routes,
    trustedProxies: vars.KEYGATE_TRUSTED_PROXIES,
    identityKeyFile: resolve(vars.KEYGATE_IDENTITY_KEY_FILE ?? join(dataDir, 'identity-key.json')),
    identityPrivateJwk: jwk,
    secretTagKey: vars.KEYGATE_SECRET_TAG_KEY === undefined ? null : parseTagKey(vars.KEYGATE_SECRET_TAG_KEY),
    secretTagKeyFile: resolve(vars.KEYGATE_SECRET_TAG_KEY_FILE ?? join(dataDir, 'secret-tag-key')),
    identityBinding: vars.KEYGATE_IDENTITY_BINDING,
    identityTtlSeconds: vars.KEYGATE_IDENTITY_TTL_SECONDS,
    expiryReminderDays: vars.KEYGATE_EXPIRY_REMINDER_DAYS,
    maxOverlapDays: vars.KEYGATE_MAX_OVERLAP_DAYS,
    defaultRateLimitPerMinute: vars.KEYGATE_DEFAULT_RATE_LIMIT,
    usageFlushMs: vars.KEYGATE_USAGE_FLUSH_MS,
    logRetentionDays: vars.KEYGATE_LOG_RETENTION_DAYS,
    usageRetentionDays: vars.KEYGATE_USAGE_RETENTION_DAYS,
    analyticsRetention: {
      minute: vars.KEYGATE_ANALYTICS_MINUTE_RETENTION_HOURS * 3_600_000,
      hour: vars.KEYGATE_ANALYTICS_HOUR_RETENTION_DAYS * 86_400_000,
      day: vars.KEYGATE_ANALYTICS_DAY_RETENTION_DAYS * 86_400_000,
    },
    analytics: vars.KEYGATE_ANALYTICS,
    maxConcurrentVerifications: vars.KEYGATE_MAX_CONCURRENT_VERIFICATIONS,
    upstreamTimeoutMs: vars.KEYGATE_UPSTREAM_TIMEOUT_MS,
    upstreamConnections: vars.KEYGATE_UPSTREAM_CONNECTIONS,
    keyMaxConcurrent: vars.KEYGATE_KEY_MAX_CONCURRENT,
    requestTimeoutMs: vars.KEYGATE_REQUEST_TIMEOUT_MS,
    bodyTimeoutMs: vars.KEYGATE_BODY_TIMEOUT_MS,
    bodyMinBytesPerSecond: vars.KEYGATE_BODY_MIN_BYTES_PER_SECOND,
    bufferedBodyMaxBytes: vars.KEYGATE_BUFFERED_BODY_MAX_BYTES,
    cacheMaxEntries: vars.KEYGATE_CACHE_MAX_ENTRIES,
    negativeCacheMaxEntries: vars.KEYGATE_NEGATIVE_CACHE_MAX_ENTRIES,
    negativeCacheTtlMs: vars.KEYGATE_NEGATIVE_CACHE_TTL_MS,
    logLevel: vars.LOG_LEVEL,
    redisUrl: redisTargetOf(redis.data),
    redisPrefix: vars.KEYGATE_REDIS_PREFIX,
    redisStalenessMs: vars.KEYGATE_REDIS_STALENESS_MS,
    redisConnectTimeoutMs: vars.KEYGATE_REDIS_CONNECT_TIMEOUT_MS,
    redisCommandTimeoutMs: vars.KEYGATE_REDIS_COMMAND_TIMEOUT_MS,
    redisCircuitTimeouts: vars.KEYGATE_REDIS_CIRCUIT_TIMEOUTS,
    redisCircuitProbeMs: vars.KEYGATE_REDIS_CIRCUIT_PROBE_MS,
    keepAliveTimeoutMs: vars.GATEWAY_KEEP_ALIVE_TIMEOUT_MS,
    shutdownGraceMs: vars.KEYGATE_SHUTDOWN_GRACE_MS,
    policies: vars.KEYGATE_POLICIES,
    apiLog: vars.KEYGATE_API_LOG,
    tracing: tracingConfigOf(tracing.data, { serviceName: 'keygate-gateway' }),
    traceIncoming: vars.KEYGATE_TRACE_INCOMING,
    openapiFile: resolve(vars.KEYGATE_OPENAPI_FILE ?? DEFAULT_OPENAPI_FILE),
    adminUiDir: resolve(vars.KEYGATE_ADMIN_UI_DIR ?? DEFAULT_ADMIN_UI_DIR),
    adminSessionIdleMinutes: vars.KEYGATE_ADMIN_SESSION_IDLE_MINUTES,
    adminSessionMaxHours: vars.KEYGATE_ADMIN_SESSION_MAX_HOURS,
    adminCookieSecure: vars.KEYGATE_ADMIN_COOKIE_SECURE,
    adminLoginMaxFailures: vars.KEYGATE_ADMIN_LOGIN_MAX_FAILURES,
    adminLoginWindowMinutes: vars.KEYGATE_ADMIN_LOGIN_WINDOW_MINUTES,
    sweepIntervalMs: vars.KEYGATE_SWEEP_INTERVAL_MS,
    testClockOffsetMs: vars.KEYGATE_TEST_CLOCK_OFFSET_MS,
    alerts: {
      allowPrivateAddresses: vars.KEYGATE_WEBHOOKS_ALLOW_PRIVATE,
      retryScheduleMs: vars.KEYGATE_ALERTS_RETRY_SCHEDULE.map((seconds) => Math.round(seconds * 1000)),
      timeoutMs: vars.KEYGATE_ALERTS_TIMEOUT_MS,
      concurrency: vars.KEYGATE_ALERTS_CONCURRENCY,
      pollIntervalMs: vars.KEYGATE_ALERTS_POLL_MS,
    },
  });
}
