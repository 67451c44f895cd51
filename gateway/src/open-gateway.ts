import { mkdir } from 'node:fs/promises';
import { startTracing } from '@keygate/tracing';
import type { Logger } from 'pino';
import { openAlerts } from './alerts/open-alerts.ts';
import { createApp, type GatewayApp } from './app.ts';
import { createUsageMeter } from './budget/usage-meter.ts';
import type { GatewayConfig } from './config.ts';
import { loadIdentityKey } from './identity/identity-key.ts';
import { createGatewayIdentitySigner } from './identity/identity-signer.ts';
import { createArgon2Hasher } from './keys/hasher.ts';
import { createKeyService, type KeyService } from './keys/key-service.ts';
import { createSecretTagger, loadTagKey } from './keys/secret-tag.ts';
import { createMetrics, type GatewayMetrics } from './ops/metrics.ts';
import type { GatewayBackend } from './store/backend.ts';
import { openGatewayBackend } from './store/open-backend.ts';

/** One gateway instance, built but not listening. */
export interface OpenedGateway {
  gateway: GatewayApp;
  backend: GatewayBackend;
  keyService: KeyService;
  /**
   * Flushes usage, stops the identity signing worker and closes the store and its connections (after
   * the server stopped).
   */
  close(): Promise<void>;
}

/** Opens SQLite, or Redis (store, events, shared rate limits) when REDIS_URL is set, reporting to fresh metrics. */
async function openBackendWithMetrics(
  config: Readonly<GatewayConfig>,
  logger: Logger,
): Promise<{ backend: GatewayBackend; metrics: GatewayMetrics }> {
  let backend: GatewayBackend | undefined;
  const metrics = config.redisUrl
    ? createMetrics({ isRedisUp: () => backend?.isRedisUp?.() ?? false })
    : createMetrics();
  backend = await openGatewayBackend({
    redisUrl: config.redisUrl,
    redisPrefix: config.redisPrefix,
    databaseFile: config.databaseFile,
    bucketRetention: config.analyticsRetention,
    connectTimeoutMs: config.redisConnectTimeoutMs,
    commandTimeoutMs: config.redisCommandTimeoutMs,
    circuitTimeouts: config.redisCircuitTimeouts,
    circuitProbeMs: config.redisCircuitProbeMs,
    logger,
    onRedisError: (operation) => metrics.redis?.errors.inc({ operation }),
    onLimiterDecision: (source) => {
      if (source === 'fallback') metrics.redis?.fallbacks.inc();
      metrics.redis?.fallbackActive.set(source === 'fallback' ? 1 : 0);
    },
  });
  return { backend, metrics };
}

/**
 * Builds one gateway instance from its config exactly as `main.ts` runs it: the backend (SQLite, or
 * Redis when `redisUrl` is set), the identity signer, the key service and the app. Opens store
 * connections but no listening socket. `clock` (epoch ms) is for tests.
 */
export async function openGateway(
  config: Readonly<GatewayConfig>,
  options: { logger: Logger; clock?: () => number },
): Promise<OpenedGateway> {
  const { logger } = options;
  const clock = options.clock ?? Date.now;
  await mkdir(config.dataDir, { recursive: true });
  const { backend, metrics } = await openBackendWithMetrics(config, logger);
  // The SDK is imported only when tracing is configured.
  const tracer = await startTracing(config.tracing);
  try {
    const privateJwk = await loadIdentityKey({
      privateJwk: config.identityPrivateJwk,
      keyFile: config.identityKeyFile,
    });
    const signer = createGatewayIdentitySigner({ privateJwk, ttlSeconds: config.identityTtlSeconds });
    // Per-request assertions sign on the thread from the first call, so it is started now; with
    // one assertion per key and lifetime, a key's first is signed inline unless other requests are
    // in flight, and the thread starts with the first renewal or busy turn: an idle instance, and one
    // with few keys, does without it.
    if (config.identityBinding === 'request') signer.warmUp();
    const tagKey = await loadTagKey({ key: config.secretTagKey, keyFile: config.secretTagKeyFile });
    const hasher = createArgon2Hasher({}, createSecretTagger(tagKey));
    const { store, events } = backend;
    const alerts = openAlerts(config, backend, { logger, clock, registry: metrics.registry });
    const keyService = createKeyService({
      store: alerts.keyStore,
      hasher,
      events,
      clock,
      config: {
        defaultRateLimitPerMinute: config.defaultRateLimitPerMinute,
        maxOverlapDays: config.maxOverlapDays,
        expiryReminderDays: config.expiryReminderDays,
      },
    });
    const meter =
      config.analytics === 'off'
        ? null
        : createUsageMeter({
            store: backend.budgetUsage,
            retention: config.analyticsRetention,
            onFlushError: (error) => logger.error({ err: error }, 'usage flush or prune failed; will retry'),
          });
    const gateway = createApp({
      config,
      store,
      ledger: backend.ledger,
      budgetUsage: backend.budgetUsage,
      meter,
      usage: backend.budgetUsage,
      hasher,
      events,
      signer,
      keyService,
      logger,
      clock,
      metrics,
      rateLimiter: backend.rateLimiter,
      tracer,
      alerts: { service: alerts.service, budget: alerts.budget, stream: alerts.stream },
    });
    alerts.worker.start();
    return {
      gateway,
      backend,
      keyService,
      async close() {
        await gateway.close();
        await alerts.worker.stop();
        await signer.close();
        await backend.close();
        await tracer?.shutdown();
      },
    };
  } catch (error) {
    await backend.close();
    await tracer?.shutdown();
    throw error;
  }
}
