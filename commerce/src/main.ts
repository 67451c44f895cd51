import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createIdentityVerifier, type IdentityVerifierOptions } from '@keygate/identity';
import { startTracing, type Tracer } from '@keygate/tracing';
import type { Request } from 'express';
import { type Logger, pino } from 'pino';
import { createApp } from './app.ts';
import { type CommerceConfig, ConfigError, parseConfig } from './config.ts';
import { type CommerceDatabase, migrateDatabase, openDatabase } from './db/database.ts';
import { claimDatabaseEnvironment, DatabaseEnvironmentError } from './db/database-environment.ts';
import { createStdoutDestination } from './http/stdout-destination.ts';
import { traceSqlite } from './http/tracing.ts';
import { createIdempotencyPruner } from './idempotency/prune-records.ts';
import { createSqliteIdempotencyStore } from './idempotency/sqlite-idempotency-store.ts';
import { isDatabaseEmpty, seedDatabase } from './seed/seed-database.ts';
import type { DeliveryStore } from './webhooks/delivery-store.ts';
import { sendWebhookOverHttp } from './webhooks/http-sender.ts';
import { createWebhookRetention } from './webhooks/retention.ts';
import { DEFAULT_MAX_RETRY_AFTER_MS } from './webhooks/retry-policy.ts';
import { createSqliteDeliveryStore } from './webhooks/sqlite-delivery-store.ts';
import { lookupHostWithDns } from './webhooks/url-policy.ts';
import { createWebhookWorker, type WebhookWorker } from './webhooks/worker.ts';

/** The only place that reads process.env, opens sockets and exits. */

/** Exit status for a signal, as a shell reports it (128 + its number). */
const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 } as const;
/** Past the grace period, how long the rest of the shutdown may take before the process exits anyway. */
const SHUTDOWN_OVERRUN_MS = 3_000;

function exitWithConfigError(message: string): never {
  process.stderr.write(`config error: ${message}\n`);
  process.exit(1);
}

function loadConfig(): Readonly<CommerceConfig> {
  try {
    return parseConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) exitWithConfigError(error.message);
    throw error;
  }
}

function loadJwks(config: CommerceConfig): IdentityVerifierOptions['keys'] {
  if (config.jwks.kind === 'url') return config.jwks.url;
  const path = config.jwks.path;
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (typeof parsed === 'object' && parsed !== null && 'keys' in parsed && Array.isArray(parsed.keys)) {
      return parsed as IdentityVerifierOptions['keys'];
    }
    return exitWithConfigError(`KEYGATE_JWKS_FILE ${path} is not a JWKS document ({"keys": [...]})`);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return exitWithConfigError(`KEYGATE_JWKS_FILE ${path} cannot be read: ${reason}`);
  }
}

/** Opens and migrates the database, refusing (config error) one recorded for the other environment. */
function openEnvironmentDatabase(config: CommerceConfig): CommerceDatabase {
  const db = openDatabase(config.dbFile);
  try {
    migrateDatabase(db);
    claimDatabaseEnvironment(db, config.environment);
  } catch (error) {
    db.close();
    if (error instanceof DatabaseEnvironmentError) exitWithConfigError(error.message);
    throw error;
  }
  return db;
}

/** The delivery worker on the process's delivery store, with the configured retry policy. */
function createWorker(
  config: CommerceConfig,
  store: DeliveryStore,
  log: Logger,
  tracer: Tracer | null,
): WebhookWorker {
  const { webhooks } = config;
  return createWebhookWorker({
    store,
    tracer,
    send: sendWebhookOverHttp,
    lookupHost: lookupHostWithDns,
    logger: log,
    options: {
      scheduleMs: webhooks.retryScheduleMs,
      jitterRatio: webhooks.jitterRatio,
      disableAfterMs: webhooks.disableAfterMs,
      maxRetryAfterMs: DEFAULT_MAX_RETRY_AFTER_MS,
      timeoutMs: webhooks.timeoutMs,
      concurrency: webhooks.concurrency,
      pollIntervalMs: webhooks.pollIntervalMs,
      allowPrivateAddresses: webhooks.allowPrivateAddresses,
    },
  });
}

/** The crash test's hook (config refuses it outside KEYGATE_BENCH_MODE=1): hang keyed POSTs to paths ending so. */
function hangAfterCommitOf(suffix: string | null): ((req: Request) => boolean) | undefined {
  if (suffix === null) return undefined;
  return (req) => req.method === 'POST' && req.path.endsWith(suffix);
}

async function main(): Promise<void> {
  const config = loadConfig();
  // The SDK is imported only when tracing is configured.
  const tracer = await startTracing(config.tracing);
  const keys = loadJwks(config);
  // Not pino's default stdout: its exit flush would retry a write to a departed reader forever.
  const rootLogger = pino(
    { level: config.logLevel, base: { service: 'commerce', pid: process.pid } },
    createStdoutDestination(),
  );
  const log = rootLogger.child({ environment: config.environment });
  const db = openEnvironmentDatabase(config);
  // Before any statement is prepared: each one run inside a traced request becomes a span.
  if (tracer) traceSqlite(db.sqlite, tracer);
  if (isDatabaseEmpty(db)) {
    const seeded = seedDatabase(db, { environment: config.environment });
    log.info({ dbFile: config.dbFile, ...seeded }, 'seeded an empty database');
  }
  const verifier = createIdentityVerifier({ keys, audience: config.audience });
  // The worker and the retention share one delivery store (its statements are prepared once).
  const deliveries = createSqliteDeliveryStore(db);
  const webhookLog = log.child({ component: 'webhooks' });
  const worker = createWorker(config, deliveries, webhookLog, tracer);
  const retention = createWebhookRetention({
    store: deliveries,
    retentionMs: config.webhooks.retentionMs,
    clock: () => new Date(),
    logger: webhookLog,
  });
  const app = createApp({
    db,
    environment: config.environment,
    verifier,
    logger: rootLogger,
    webhooks: { allowPrivateAddresses: config.webhooks.allowPrivateAddresses, notify: () => worker.notify() },
    responseCache: { maxBytes: config.responseCacheBytes },
    tracer,
    hangAfterCommit: hangAfterCommitOf(config.hangAfterCommitSuffix),
  });
  const pruner = createIdempotencyPruner({
    store: createSqliteIdempotencyStore(db),
    clock: () => new Date(),
    onError: (error) => log.error({ err: error }, 'idempotency record pruning failed'),
  });
  const server = createServer(app);
  // Outlive the gateway's idle keep-alive sockets so it never reuses one we are closing.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;

  server.on('error', (error) => {
    log.fatal({ err: error }, 'cannot listen');
    db.close();
    process.exit(1);
  });
  server.listen(config.port, config.host, () => {
    const { port } = server.address() as AddressInfo;
    log.info({ host: config.host, port, dbFile: config.dbFile }, 'commerce listening');
    worker.start();
    retention.start();
    pruner.start();
  });

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      // A second signal: the operator does not want to wait for in-flight work.
      log.warn({ signal }, 'second signal: exiting now');
      process.exit(SIGNAL_EXIT[signal as keyof typeof SIGNAL_EXIT] ?? 1);
    }
    stopping = true;
    log.info({ signal }, 'shutting down');
    pruner.stop();
    const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
    // Attempts in flight are aborted and stay pending with their webhook-id, for the next start.
    Promise.all([stopped, worker.stop(), retention.stop()]).then(async () => {
      db.close();
      await tracer?.shutdown();
      log.info('stopped');
      process.exit(0);
    });
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), config.shutdownGraceMs).unref();
    // Whatever still holds the process past the grace period (a stuck worker, a stalled stdout)
    // must not keep a commerce with a closed listener alive.
    setTimeout(() => {
      log.error('shutdown did not finish in time: exiting');
      process.exit(1);
    }, config.shutdownGraceMs + SHUTDOWN_OVERRUN_MS).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
