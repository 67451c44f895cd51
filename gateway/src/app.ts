import type { IdentitySigner } from '@keygate/identity';
import { registerDroppedSpans, type Tracer } from '@keygate/tracing';
import express, { type Express, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import { createAdminRouter } from './admin/admin-router.ts';
import { createAlertRouter } from './alerts/alert-routes.ts';
import type { AlertService } from './alerts/alert-service.ts';
import type { BudgetAlerts } from './alerts/budget-alerts.ts';
import { createIdentityAnalyticsRouter, createKeyAnalyticsRouter } from './analytics/analytics-routes.ts';
import { compileIpRules } from './auth/ip-rules.ts';
import { createKeyVerifier } from './auth/key-verifier.ts';
import type { CallBucketStore } from './budget/call-buckets.ts';
import type { BudgetLedger } from './budget/ledger.ts';
import { createMemoryLedger } from './budget/memory-ledger.ts';
import { createPolicyCache } from './budget/policy-cache.ts';
import {
  type BudgetUsageStore,
  createMemoryBudgetUsage,
  createUsageMeter,
  type UsageMeter,
} from './budget/usage-meter.ts';
import type { GatewayConfig } from './config.ts';
import { createCallObserver } from './data-plane/call-observer.ts';
import { createCallTracing, traceRateLimiter } from './data-plane/call-trace.ts';
import {
  createKeyPipelineMiddleware,
  createPoliciesOffHandler,
  createProxiedHandler,
  policiesOffFallback,
} from './data-plane/data-plane.ts';
import { createGatewayListener, type GatewayListener } from './data-plane/gateway-listener.ts';
import { type BudgetGate, createKeyCheck, type KeyCheckDeps } from './data-plane/key-check.ts';
import { createStreamWatch, type StreamWatch } from './data-plane/stream-watch.ts';
import { chargeUpstreamCost } from './data-plane/upstream-cost.ts';
import { createUpstreamPipe } from './data-plane/upstream-pipe.ts';
import { createDocsRouter } from './docs/docs-router.ts';
import { createErrorHandler, notFound } from './http/error-handler.ts';
import { createLogger } from './http/logger.ts';
import { assertionSigningOf, createAssertionCache } from './identity/assertion-cache.ts';
import { createJwksHandler } from './identity/jwks-route.ts';
import type { SecretHasher } from './keys/hasher.ts';
import type { KeyService } from './keys/key-service.ts';
import { createBudgetRouters } from './keys-api/budget-router.ts';
import { createIdempotencyStep } from './keys-api/idempotency.ts';
import { createKeysRouter } from './keys-api/router.ts';
import type { KeyEvents } from './model/events.ts';
import type { ApiKey } from './model/model.ts';
import { createMetrics, type GatewayMetrics } from './ops/metrics.ts';
import { createOpsRouter } from './ops/ops-router.ts';
import { createBudgetService } from './plans/budget-service.ts';
import { createIdentityService } from './plans/identity-service.ts';
import { createPlanService } from './plans/plan-service.ts';
import { createMemoryRateLimiter, type KeyRateLimiter } from './rate-limit/key-rate-limiter.ts';
import { compileRoutes } from './routes/route-matcher.ts';
import { IDENTITIES_PREFIX, MANAGEMENT_PREFIX, PLANS_PREFIX, USAGE_PREFIX } from './routes/route-table.ts';
import type { KeyStore } from './store/store.ts';
import { createUsageRecorder, type UsageRecorder } from './usage/usage-recorder.ts';

export interface AppDeps {
  config: Readonly<GatewayConfig>;
  store: KeyStore;
  hasher: SecretHasher;
  events: KeyEvents;
  signer: IdentitySigner;
  /** Serves `/v2/auth/keys` through createKeysRouter unless `keysRouter` is given. */
  keyService?: KeyService;
  /** The `/v2/auth/keys` router; mounted after the key pipeline, which requires `auth:rw` for it. */
  keysRouter?: RequestHandler;
  logger?: Logger;
  /** Epoch ms; drives expiry, overlap ends, reminders and usage timestamps. */
  clock?: () => number;
  /** Per-key limits; default in-process (one instance). With Redis: createRedisRateLimiter. */
  rateLimiter?: KeyRateLimiter;
  /** Where plans, quotas and credits are counted; default in-process, unwritten (tests). */
  ledger?: BudgetLedger;
  /** Replaces the budget gate built from the store's plans and identities and `ledger` (tests). */
  budgets?: BudgetGate;
  /** Where billing usage by day and outcome is written; default this process's memory (tests). */
  budgetUsage?: BudgetUsageStore;
  /** The meter counting calls into `budgetUsage` (default one built here); null: counting off (bench mode). */
  meter?: UsageMeter | null;
  /** Where calls over time are read (the store the meter writes): serves the analytics routes. */
  usage?: CallBucketStore;
  /** The started tracer when tracing is on (see `@keygate/tracing`); absent or null, no span is made. */
  tracer?: Tracer | null;
  /** Metrics to report to (e.g. created with the Redis series by main); default a fresh set. */
  metrics?: GatewayMetrics;
  /** The alert endpoints API and the data plane's alert hooks (alerts/); absent: no alerts. */
  alerts?: { service: AlertService; budget: BudgetAlerts; stream?: RequestHandler };
}

export interface GatewayApp {
  /**
   * The gateway's request listener (`http.createServer(app)`, `app.listen(port, host)`): proxied
   * routes go through the data plane on plain node:http, everything else to `controlPlane`.
   */
  app: GatewayListener;
  /** The Express app serving ops endpoints, JWKS, docs, admin, the key-management API and 404s. */
  controlPlane: Express;
  recorder: UsageRecorder;
  metrics: GatewayMetrics;
  /** Hands the access-log lines still held to the logger's stream (they leave in chunks; see call-observer.ts). */
  flushAccessLog(): void;
  /** Stops listening to key events, flushes access lines and usage and drops upstream connections. Does not close the store. */
  close(): Promise<void>;
}

/**
 * Builds the gateway without listening: the data plane (key pipeline and raw upstream pipe on plain
 * node:http) for proxied routes, and the Express control plane (ops endpoints, JWKS, docs, admin,
 * key pipeline + key-management API, 404s) for everything else.
 */
export function createApp(deps: AppDeps): GatewayApp {
  const { config, store } = deps;
  const clock = deps.clock ?? Date.now;
  const logger = deps.logger ?? createLogger('silent');
  const metrics = deps.metrics ?? createMetrics();
  const routes = compileRoutes(config.routes);
  // Plans and identities are read once per key and kept until one of them changes, anywhere.
  const policies = createPolicyCache(store);
  const stopBudgetEvents = deps.events.subscribeBudget(() => policies.invalidate());
  // Billing usage, counted per call and written in batches; flushed when the app closes.
  const budgetUsage = deps.budgetUsage ?? createMemoryBudgetUsage();
  const meter =
    deps.meter === undefined
      ? createUsageMeter({
          store: budgetUsage,
          onFlushError: (error) => logger.error({ err: error }, 'billing usage flush failed; will retry'),
        })
      : deps.meter;
  const budgets = deps.budgets ?? {
    policyOf: (key: ApiKey) => policies.policyOf(key),
    ledger: deps.ledger ?? createMemoryLedger(),
  };
  const verifier = createKeyVerifier({
    store,
    hasher: deps.hasher,
    events: deps.events,
    clock,
    maxEntries: config.cacheMaxEntries,
    maxConcurrentVerifications: config.maxConcurrentVerifications,
    negativeMaxEntries: config.negativeCacheMaxEntries,
    negativeTtlMs: config.negativeCacheTtlMs,
    stalenessMs: config.redisStalenessMs,
    hooks: {
      cacheHit: () => metrics.countAuthCacheHit(),
      cacheMiss: () => metrics.authCache.inc({ result: 'miss' }),
      verification: (ok) => metrics.verifications.inc({ result: ok ? 'match' : 'mismatch' }),
      tagVerified: () => metrics.tagVerifications.inc(),
      verificationRefused: (reason) => metrics.verificationsRefused.inc({ reason }),
      versionCheck: (result) => metrics.redis?.versionChecks.inc({ result }),
      storeChanged: () => policies.invalidate(),
    },
  });
  metrics.observeNegativeCache(() => verifier.negativeEntries);
  // Pub/sub delivers at most once: after the subscriber reconnected, no cached key state is trusted.
  const stopResets = deps.events.onReset?.(() => {
    verifier.dropAll();
    policies.invalidate();
    logger.info('key events resubscribed: dropped every cached key state');
  });
  const recorder = createUsageRecorder({
    store,
    clock,
    flushIntervalMs: config.usageFlushMs,
    retentionDays: config.logRetentionDays,
    usageRetentionDays: config.usageRetentionDays,
    apiLog: config.apiLog === 'on',
    onLogsDropped: (count) => metrics.usageLogsDropped.inc(count),
    onBucketsDropped: (count) => metrics.usageBucketsDropped.inc(count),
    onFlushError: (error) => {
      metrics.usageFlushFailures.inc();
      logger.error({ err: error }, 'usage flush failed; will retry');
    },
  });
  const pipe = createUpstreamPipe({
    targets: routes.upstreamTargets.map((target) => target.url),
    signer: deps.signer,
    timeoutMs: config.upstreamTimeoutMs,
    connectionsPerUpstream: config.upstreamConnections,
    bodyLimits: {
      maxBytes: config.bufferedBodyMaxBytes,
      timeoutMs: config.bodyTimeoutMs,
      minBytesPerSecond: config.bodyMinBytesPerSecond,
    },
    assertions:
      config.identityBinding === 'key'
        ? createAssertionCache(assertionSigningOf(deps.signer), config.cacheMaxEntries)
        : null,
    metrics,
    logger,
    tracer: deps.tracer,
    charge: chargeUpstreamCost(budgets, clock, logger),
  });
  if (deps.tracer) registerDroppedSpans(metrics.registry, deps.tracer);

  const app = express();
  // Before the first app.use (the app router is built lazily from these settings): paths match
  // exactly as the route matcher compares them, so `/v2/AUTH/keys` never reaches the keys router.
  app.set('case sensitive routing', true);
  app.set('strict routing', false);
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(createOpsRouter({ store, upstreams: routes.upstreamTargets, metrics, logger }));
  app.get('/.well-known/jwks.json', createJwksHandler(deps.signer));
  // Public documentation and the admin interface: answered by the gateway itself, before any key check.
  app.use(createDocsRouter({ openapiFile: config.openapiFile, routeTable: config.routes }));
  const trustedProxies = compileIpRules(config.trustedProxies);
  const budgetDeps = { store, events: deps.events, clock };
  const budget = {
    plans: createPlanService(budgetDeps),
    identities: createIdentityService(budgetDeps),
    budgetService: createBudgetService({ store, ledger: budgets.ledger, usage: budgetUsage, clock }),
  };
  if (config.policies === 'on' && deps.keyService) {
    app.use(
      '/admin',
      createAdminRouter({
        config,
        store,
        hasher: deps.hasher,
        keyService: deps.keyService,
        budget,
        trustedProxies,
        clock,
        logger,
        sign: (identity, audience) => deps.signer.sign(identity, audience),
        usage: deps.usage,
      }),
    );
  }
  let proxied: Parameters<typeof createGatewayListener>[0]['proxied'];
  /** Watches stream routes' answers (policies on). */
  let streams: StreamWatch | undefined;
  /** Set when the key pipeline runs (policies on): policies off writes no access lines. */
  let flushAccessLog = () => {};
  if (config.policies === 'off') {
    // Benchmarking mode (config refuses it without KEYGATE_BENCH_MODE=1): no keys, so no key API either.
    proxied = createPoliciesOffHandler({ pipe, refusal: { metrics, logger } });
    app.use(policiesOffFallback);
  } else {
    const rateLimiter = deps.rateLimiter ?? createMemoryRateLimiter();
    const keyCheck = createKeyCheck({
      verifier,
      rateLimiter: deps.tracer ? traceRateLimiter(rateLimiter, deps.tracer) : rateLimiter,
      trustedProxies,
      metrics,
      reminderLeadDays: Math.max(0, ...config.expiryReminderDays),
      clock,
      logger,
      upstreamTimeoutMs: config.upstreamTimeoutMs,
      budgets,
      ...alertHooks(deps.alerts?.budget, clock),
    });
    const observer = createCallObserver({ metrics, recorder, meter: meter ?? undefined, logger, clock });
    flushAccessLog = observer.flush;
    streams = createStreamWatch({ verifier, events: deps.events });
    const tracing = deps.tracer ? createCallTracing(deps.tracer, config.traceIncoming) : undefined;
    proxied = createProxiedHandler({
      keyCheck,
      observer,
      pipe,
      streams,
      keyMaxConcurrent: config.keyMaxConcurrent,
      tracing,
    });
    app.use(createKeyPipelineMiddleware({ routes, keyCheck, observer, tracing }));
    const idempotency = createIdempotencyStep({ store, clock, logger });
    const keysRouter =
      deps.keysRouter ??
      (deps.keyService &&
        createKeysRouter({ keyService: deps.keyService, budgetService: budget.budgetService, idempotency }));
    if (deps.usage && deps.keyService) {
      const analytics = { usage: deps.usage, clock, keyService: deps.keyService };
      app.use(MANAGEMENT_PREFIX, createKeyAnalyticsRouter(analytics));
    }
    if (keysRouter) app.use(MANAGEMENT_PREFIX, keysRouter);
    const budgetRouters = createBudgetRouters({ ...budget, idempotency });
    app.use(PLANS_PREFIX, budgetRouters.plans);
    if (deps.usage)
      app.use(IDENTITIES_PREFIX, createIdentityAnalyticsRouter({ usage: deps.usage, clock, store }));
    app.use(IDENTITIES_PREFIX, budgetRouters.identities);
    app.use(USAGE_PREFIX, budgetRouters.usage);
    if (deps.alerts)
      app.use(
        '/v2/auth',
        createAlertRouter({ alerts: deps.alerts.service, stream: deps.alerts.stream, idempotency }),
      );
  }
  app.use(notFound);
  app.use(createErrorHandler(logger));

  return {
    app: createGatewayListener({ routes, proxied, controlPlane: app, logger }),
    controlPlane: app,
    recorder,
    metrics,
    flushAccessLog: () => flushAccessLog(),
    async close() {
      flushAccessLog();
      stopResets?.();
      stopBudgetEvents();
      streams?.close();
      verifier.close();
      await recorder.close();
      // The meter is this app's to close, whoever built it: it writes what it still holds.
      await meter?.close();
      pipe.close();
    },
  };
}

/** The key check's alert hooks: budget crossings and rate-limit refusals of the call's key. */
function alertHooks(
  budget: BudgetAlerts | undefined,
  clock: () => number,
): Pick<KeyCheckDeps, 'onBudget' | 'onRateLimited'> {
  if (!budget) return {};
  return {
    onBudget: (call, policy, verdict) => budget.onBudget(call.verified!.key, policy, verdict),
    onRateLimited: (call) => budget.onRateLimited(call.verified!.key, clock()),
  };
}
