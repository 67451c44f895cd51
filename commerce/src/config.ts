import { join } from 'node:path';
import type { Environment } from '@keygate/identity';
import { type TracingConfig, TracingEnvSchema, tracingConfigOf } from '@keygate/tracing';
import { z } from 'zod';
import { DEFAULT_RESPONSE_CACHE_MIB } from './http/response-cache.ts';
import {
  DEFAULT_DISABLE_AFTER_MS,
  DEFAULT_JITTER_RATIO,
  DEFAULT_RETRY_SCHEDULE_SECONDS,
} from './webhooks/retry-policy.ts';

/**
 * Commerce configuration, from environment variables (documented defaults):
 * - COMMERCE_ENV           live | test (live)
 * - COMMERCE_PORT          port; else COMMERCE_LIVE_PORT (8081) or COMMERCE_TEST_PORT (8082)
 * - COMMERCE_HOST          127.0.0.1
 * - KEYGATE_DATA_DIR       ./data
 * - COMMERCE_DB_FILE       ${KEYGATE_DATA_DIR}/commerce-${env}.db
 * - KEYGATE_JWKS_FILE      a JWKS JSON file with the gateway's public keys (wins if set)
 * - KEYGATE_JWKS_URL       http://127.0.0.1:8080/.well-known/jwks.json (fetched lazily)
 * - COMMERCE_AUDIENCE      commerce
 * - LOG_LEVEL              info (fatal, error, warn, info, debug, trace, silent)
 * - COMMERCE_SHUTDOWN_GRACE_MS  10000 (on SIGTERM, in-flight requests get this long; a second
 *                               signal exits at once)
 * - COMMERCE_RESPONSE_CACHE_MIB  16 (catalogue and GraphQL answers kept for the current data, in
 *                               MiB; 0 turns the cache off; see src/http/response-cache.ts)
 * Webhooks (see src/webhooks/retry-policy.ts for the rules):
 * - KEYGATE_WEBHOOKS_ALLOW_PRIVATE           false; true lets endpoints be loopback/private addresses
 * - COMMERCE_WEBHOOK_RETRY_SCHEDULE          0,5,300,1800,7200,18000,36000,36000 (seconds before each
 *                                            attempt; the first must be 0; decimals allowed)
 * - COMMERCE_WEBHOOK_JITTER                  0.2 (± fraction of each delay, 0..0.5)
 * - COMMERCE_WEBHOOK_TIMEOUT_MS              10000 (one request, connect to end of response)
 * - COMMERCE_WEBHOOK_CONCURRENCY             8 (attempts in flight; one per endpoint)
 * - COMMERCE_WEBHOOK_DISABLE_AFTER_SECONDS   432000 (5 days of failures without a success)
 * - COMMERCE_WEBHOOK_POLL_MS                 1000 (longest sleep between looks at the outbox)
 * - COMMERCE_WEBHOOK_RETENTION_DAYS          30 (events and their finished deliveries are deleted
 *                                            this long after the event; unfinished ones are kept)
 * Tests only (refused unless KEYGATE_BENCH_MODE=1):
 * - COMMERCE_TEST_HANG_AFTER_COMMIT  a path suffix (e.g. `:checkout`): a POST with an Idempotency-Key
 *                                    whose path ends so is left unanswered once its effect and record
 *                                    are committed, so a test can kill the process there
 */
export interface CommerceConfig {
  environment: Environment;
  host: string;
  port: number;
  dataDir: string;
  dbFile: string;
  /** Where the gateway's public keys come from. */
  jwks: { kind: 'file'; path: string } | { kind: 'url'; url: URL };
  audience: string;
  logLevel: LogLevel;
  /** On SIGTERM/SIGINT, in-flight requests get this long before connections are cut. */
  shutdownGraceMs: number;
  /** Bytes of catalogue and GraphQL answers the response cache keeps at most; 0: no cache. */
  responseCacheBytes: number;
  /** COMMERCE_TEST_HANG_AFTER_COMMIT (tests only, with KEYGATE_BENCH_MODE=1); null when unset. */
  hangAfterCommitSuffix: string | null;
  webhooks: WebhookConfig;
  /** OpenTelemetry tracing from the standard OTEL_* variables; null (the SDK never loaded) without an OTLP endpoint. */
  tracing: TracingConfig | null;
}

/** The webhook worker's settings; durations in milliseconds. */
export interface WebhookConfig {
  allowPrivateAddresses: boolean;
  retryScheduleMs: number[];
  jitterRatio: number;
  timeoutMs: number;
  concurrency: number;
  disableAfterMs: number;
  pollIntervalMs: number;
  /** How long events and their finished deliveries are kept after the event was made. */
  retentionMs: number;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const PortSchema = z.coerce
  .number({ error: 'must be a port number' })
  .int('must be an integer')
  .min(0, 'must be 0..65535')
  .max(65535, 'must be 0..65535');

const BooleanSchema = z
  .enum(['true', 'false'], { error: "must be 'true' or 'false'" })
  .transform((v) => v === 'true');

const positiveInt = (max: number) =>
  z.coerce
    .number({ error: `must be an integer 1..${max}` })
    .int(`must be an integer 1..${max}`)
    .min(1, `must be an integer 1..${max}`)
    .max(max, `must be an integer 1..${max}`);

/** Comma-separated seconds, each 0..604800, the first 0 (the first attempt is immediate). */
const RetryScheduleSchema = z
  .string()
  .transform((value) => value.split(',').map((part) => (part.trim() === '' ? Number.NaN : Number(part))))
  .refine(
    (delays) => delays.every((d) => Number.isFinite(d) && d >= 0 && d <= 604_800),
    'must be comma-separated seconds, each 0..604800',
  )
  .refine((delays) => delays.length <= 50, 'must have at most 50 entries')
  .refine((delays) => delays[0] === 0, 'must start with 0 (the first attempt is immediate)');

const EnvSchema = z.object({
  COMMERCE_ENV: z.enum(['live', 'test'], { error: "must be 'live' or 'test'" }).default('live'),
  COMMERCE_PORT: PortSchema.optional(),
  COMMERCE_LIVE_PORT: PortSchema.default(8081),
  COMMERCE_TEST_PORT: PortSchema.default(8082),
  COMMERCE_HOST: z.string().default('127.0.0.1'),
  KEYGATE_DATA_DIR: z.string().default('./data'),
  COMMERCE_DB_FILE: z.string().optional(),
  KEYGATE_JWKS_FILE: z.string().optional(),
  KEYGATE_JWKS_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .default('http://127.0.0.1:8080/.well-known/jwks.json'),
  COMMERCE_AUDIENCE: z.string().default('commerce'),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  COMMERCE_SHUTDOWN_GRACE_MS: positiveInt(3_600_000).default(10_000),
  COMMERCE_RESPONSE_CACHE_MIB: z.coerce
    .number({ error: 'must be an integer 0..1024' })
    .int('must be an integer 0..1024')
    .min(0, 'must be an integer 0..1024')
    .max(1024, 'must be an integer 0..1024')
    .default(DEFAULT_RESPONSE_CACHE_MIB),
  KEYGATE_WEBHOOKS_ALLOW_PRIVATE: BooleanSchema.default(false),
  COMMERCE_WEBHOOK_RETRY_SCHEDULE: RetryScheduleSchema.default([...DEFAULT_RETRY_SCHEDULE_SECONDS]),
  COMMERCE_WEBHOOK_JITTER: z.coerce
    .number({ error: 'must be a number 0..0.5' })
    .min(0, 'must be a number 0..0.5')
    .max(0.5, 'must be a number 0..0.5')
    .default(DEFAULT_JITTER_RATIO),
  COMMERCE_WEBHOOK_TIMEOUT_MS: positiveInt(120_000).default(10_000),
  COMMERCE_WEBHOOK_CONCURRENCY: positiveInt(256).default(8),
  COMMERCE_WEBHOOK_DISABLE_AFTER_SECONDS: positiveInt(365 * 86_400).default(DEFAULT_DISABLE_AFTER_MS / 1000),
  COMMERCE_WEBHOOK_POLL_MS: positiveInt(60_000).default(1000),
  COMMERCE_WEBHOOK_RETENTION_DAYS: positiveInt(3650).default(30),
  KEYGATE_BENCH_MODE: z.enum(['0', '1'], { error: "must be '0' or '1'" }).default('0'),
  COMMERCE_TEST_HANG_AFTER_COMMIT: z.string().optional(),
});

/** Thrown by `parseConfig`; the message is one line naming every problem. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Parses and validates the environment record; returns a frozen config or throws ConfigError. */
export function parseConfig(env: Record<string, string | undefined>): Readonly<CommerceConfig> {
  // An empty variable counts as unset, so `FOO= node src/main.ts` takes the default.
  const present = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== ''),
  );
  const parsed = EnvSchema.extend(TracingEnvSchema.shape).safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? 'config');
      const got = env[name];
      return `${name} ${issue.message}${got === undefined ? '' : ` (got ${JSON.stringify(got)})`}`;
    });
    throw new ConfigError(problems.join('; '));
  }
  const e = parsed.data;
  if (e.COMMERCE_TEST_HANG_AFTER_COMMIT !== undefined && e.KEYGATE_BENCH_MODE !== '1') {
    throw new ConfigError(
      'COMMERCE_TEST_HANG_AFTER_COMMIT is a test hook: set KEYGATE_BENCH_MODE=1 too to use it, never in production',
    );
  }
  const environment = e.COMMERCE_ENV;
  const port = e.COMMERCE_PORT ?? (environment === 'live' ? e.COMMERCE_LIVE_PORT : e.COMMERCE_TEST_PORT);
  return Object.freeze({
    environment,
    host: e.COMMERCE_HOST,
    port,
    dataDir: e.KEYGATE_DATA_DIR,
    dbFile: e.COMMERCE_DB_FILE ?? join(e.KEYGATE_DATA_DIR, `commerce-${environment}.db`),
    jwks: e.KEYGATE_JWKS_FILE
      ? { kind: 'file' as const, path: e.KEYGATE_JWKS_FILE }
      : { kind: 'url' as const, url: new URL(e.KEYGATE_JWKS_URL) },
    audience: e.COMMERCE_AUDIENCE,
    logLevel: e.LOG_LEVEL,
    shutdownGraceMs: e.COMMERCE_SHUTDOWN_GRACE_MS,
    responseCacheBytes: e.COMMERCE_RESPONSE_CACHE_MIB * 1024 * 1024,
    hangAfterCommitSuffix: e.COMMERCE_TEST_HANG_AFTER_COMMIT ?? null,
    webhooks: Object.freeze({
      allowPrivateAddresses: e.KEYGATE_WEBHOOKS_ALLOW_PRIVATE,
      retryScheduleMs: e.COMMERCE_WEBHOOK_RETRY_SCHEDULE.map((seconds) => Math.round(seconds * 1000)),
      jitterRatio: e.COMMERCE_WEBHOOK_JITTER,
      timeoutMs: e.COMMERCE_WEBHOOK_TIMEOUT_MS,
      concurrency: e.COMMERCE_WEBHOOK_CONCURRENCY,
      disableAfterMs: e.COMMERCE_WEBHOOK_DISABLE_AFTER_SECONDS * 1000,
      pollIntervalMs: e.COMMERCE_WEBHOOK_POLL_MS,
      retentionMs: e.COMMERCE_WEBHOOK_RETENTION_DAYS * 86_400_000,
    }),
    tracing: tracingConfigOf(e, {
      serviceName: 'keygate-commerce',
      resource: { 'deployment.environment.name': environment },
    }),
  });
}
