import { type Environment, type IdentityVerifier, requireIdentity } from '@keygate/identity';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { type Logger, pino } from 'pino';
import { createCartRouter } from './carts/cart-routes.ts';
import { createCartService } from './carts/cart-service.ts';
import { createSqliteCartStore } from './carts/sqlite-cart-store.ts';
import { createCatalogRouter } from './catalog/catalog-routes.ts';
import { createCatalogService } from './catalog/catalog-service.ts';
import { createSqliteCatalogStore } from './catalog/sqlite-catalog-store.ts';
import { createCustomerRouter } from './customers/customer-routes.ts';
import { type CommerceDatabase, isDatabaseReachable } from './db/database.ts';
import { assertDatabaseEnvironment } from './db/database-environment.ts';
import { CommerceError } from './errors.ts';
import { createGraphqlRouter } from './graphql/graphql-route.ts';
import { answerRouteNotFound, handleErrors } from './http/errors-middleware.ts';
import { createHealthRouter } from './http/health-routes.ts';
import { createHttpMetrics } from './http/metrics.ts';
import { trackRequests } from './http/request-context.ts';
import { createRandomId } from './ids.ts';
import { createStockRouter } from './stock/stock-routes.ts';

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
  assertDatabaseEnvironment(db, environment);
  const logger = (deps.logger ?? pino()).child({ environment });
  const clock = deps.clock ?? (() => new Date());
  const catalogStore = createSqliteCatalogStore(db.orm);
  const catalog = createCatalogService({ store: catalogStore, clock });
  const carts = createCartService({
    carts: createSqliteCartStore(db),
    catalogStore,
    catalog,
    clock,
    newCartId: () => createRandomId('crt'),
  });
  const metrics = createHttpMetrics(environment);

  const app = express();
  app.disable('x-powered-by');
  app.use(trackRequests(logger), metrics.observe);
  app.use(
    createHealthRouter({ isReady: () => isDatabaseReachable(db), registry: metrics.registry, environment }),
  );
  app.use('/v2', requireIdentity({ verifier: deps.verifier, environment }));
  app.use('/v2', requireJsonBody, express.json({ limit: '16kb' }));
  app.use(createCatalogRouter(catalog));
  app.use(createStockRouter(catalog));
  app.use(createCartRouter(carts));
  app.use(createCustomerRouter({ store: catalogStore, clock }));
  app.use(createGraphqlRouter({ catalog, logger }));
  app.use(answerRouteNotFound);
  app.use(handleErrors(logger));
  return app;
}
