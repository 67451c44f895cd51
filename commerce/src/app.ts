import { type Environment, type IdentityVerifier, requireIdentity } from '@keygate/identity';
import { registerDroppedSpans, type Tracer, traceparentOf } from '@keygate/tracing';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { type Logger, pino } from 'pino';
import { createCartRouter } from './carts/cart-routes.ts';
import { createCatalogRouter } from './catalog/catalog-routes.ts';
import { createImageRouter } from './catalog/image-routes.ts';
import { createCustomerRouter } from './customers/customer-routes.ts';
import { createAtomically } from './db/atomically.ts';
import { type CommerceDatabase, isDatabaseReachable } from './db/database.ts';
import { assertDatabaseEnvironment } from './db/database-environment.ts';
import { CommerceError } from './errors.ts';
import { createGraphqlRouter } from './graphql/graphql-route.ts';
import { answerRouteNotFound, handleErrors } from './http/errors-middleware.ts';
import { createHealthRouter } from './http/health-routes.ts';
import { createHttpMetrics } from './http/metrics.ts';
import { trackRequests } from './http/request-context.ts';
import {
  createResponseCache,
  DEFAULT_RESPONSE_CACHE_ENTRIES,
  DEFAULT_RESPONSE_CACHE_MIB,
  type ResponseCacheOptions,
} from './http/response-cache.ts';
import { requestSpanOf, traceRequests } from './http/tracing.ts';
import { honourIdempotencyKey, keepRawBody } from './idempotency/honour-idempotency-key.ts';
import { createSqliteIdempotencyStore } from './idempotency/sqlite-idempotency-store.ts';
import { createMediaRouter } from './media/media-routes.ts';
import { createOrderRouter } from './orders/order-routes.ts';
import { createPriceRouter } from './prices/price-routes.ts';
import { createEventStreamRouter } from './sandbox/event-stream-routes.ts';
import { createResetRouter } from './sandbox/reset-routes.ts';
import { createServices, type WebhookAppOptions } from './services.ts';
import { createStockRouter } from './stock/stock-routes.ts';
import { createEndpointRouter } from './webhooks/endpoint-routes.ts';
import type { EventOutbox } from './webhooks/outbox.ts';
import { readWebhookBacklog } from './webhooks/sqlite-delivery-store.ts';
import { registerWebhookMetrics } from './webhooks/webhook-metrics.ts';

export interface AppDeps {
  /** The environment's database, already migrated (refused if recorded for the other environment). */
  db: CommerceDatabase;
  /** The environment this instance serves; assertions for the other one get 403. */
  environment: Environment;
  /** Verifies the gateway's identity assertions. */
  verifier: IdentityVerifier;
  /** The root logger; the app binds `environment` to every line itself. */
  logger?: Logger;
  clock?: () => Date;
  /** Webhook endpoint rules and the hook that wakes the delivery worker. */
  webhooks?: WebhookAppOptions;
  /** Wraps the transactional outbox (tests use it to inject failures). */
  wrapOutbox?: (outbox: EventOutbox) => EventOutbox;
  /** How often (ms) the sandbox's event stream reads the outbox (default 250). */
  eventStreamPollMs?: number;
  /** Bounds of the catalogue and GraphQL response cache (default 16 MiB, 4096 entries; 0 bytes: off). */
  responseCache?: Partial<ResponseCacheOptions>;
  /** The started tracer when tracing is on (see `@keygate/tracing`); absent or null, no span is made. */
  tracer?: Tracer | null;
  /**
   * Test hook, honoured only when main.ts was started with KEYGATE_BENCH_MODE=1: true leaves a
   * keyed request unanswered once its effect and record are committed (the crash test kills it there).
   */
  hangAfterCommit?: (req: Request) => boolean;
}

/** The `traceparent` of the span active now, or null outside any span. */
function traceparentNow(tracer: Tracer): string | null {
  const span = tracer.activeSpan();
  return span === undefined ? null : traceparentOf(span);
}

/** Refuses a request body that is not JSON (415) before any parser or route sees it. */
function requireJsonBody(req: Request, _res: Response, next: NextFunction): void {
  const hasBody =
    req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  if (hasBody && !req.is('application/json')) {
    return next(new CommerceError('UNSUPPORTED_MEDIA_TYPE', 'Send request bodies as application/json.'));
  }
  next();
}

/**
 * Builds the commerce app without listening. Reads the database once here: its recorded
 * environment (DatabaseEnvironmentError on a mismatch) and the channels of the GraphQL schema.
 */
export function createApp(deps: AppDeps): Express {
  const { db, environment } = deps;
  const tracer = deps.tracer ?? null;
  assertDatabaseEnvironment(db, environment);
  const logger = (deps.logger ?? pino()).child({ environment });
  const clock = deps.clock ?? (() => new Date());
  const services = createServices({
    db,
    environment,
    clock,
    webhooks: deps.webhooks,
    wrapOutbox: deps.wrapOutbox,
    traceparentNow: tracer ? () => traceparentNow(tracer) : undefined,
  });
  const responses = createResponseCache(db, clock, {
    maxBytes: deps.responseCache?.maxBytes ?? DEFAULT_RESPONSE_CACHE_MIB * 1024 * 1024,
    maxEntries: deps.responseCache?.maxEntries ?? DEFAULT_RESPONSE_CACHE_ENTRIES,
  });
  const metrics = createHttpMetrics(environment);
  registerWebhookMetrics(metrics.registry, () => readWebhookBacklog(db), clock);
  if (tracer) registerDroppedSpans(metrics.registry, tracer);

  const app = express();
  app.disable('x-powered-by');
  if (tracer) app.use(traceRequests(tracer));
  app.use(trackRequests(logger, tracer ? requestSpanOf : undefined), metrics.observe);
  app.use(
    createHealthRouter({ isReady: () => isDatabaseReachable(db), registry: metrics.registry, environment }),
  );
  app.use('/v2', requireIdentity({ verifier: deps.verifier, environment }));
  app.use('/v2', requireJsonBody, express.json({ limit: '16kb', verify: keepRawBody }));
  app.use(
    '/v2',
    honourIdempotencyKey({
      db,
      store: createSqliteIdempotencyStore(db),
      atomically: createAtomically(db),
      clock,
      hangAfterCommit: deps.hangAfterCommit,
    }),
  );
  app.use(createCatalogRouter(services.catalog, responses));
  app.use(createImageRouter(services.images));
  app.use(createMediaRouter());
  app.use(createStockRouter({ catalog: services.catalog, stock: services.stock }));
  app.use(createCartRouter(services.carts));
  app.use(createOrderRouter(services.orders));
  app.use(createCustomerRouter({ store: services.catalogStore, customers: services.customers, clock }));
  app.use(createPriceRouter(services.prices));
  app.use(createEndpointRouter(services.endpoints, services.events));
  app.use(createResetRouter({ db, environment }));
  app.use(createEventStreamRouter({ db, environment, pollMs: deps.eventStreamPollMs }));
  app.use(createGraphqlRouter({ catalog: services.catalog, logger, cache: responses, tracer }));
  app.use(answerRouteNotFound);
  app.use(handleErrors(logger));
  return app;
}
