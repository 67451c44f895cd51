import type { Identity } from '@keygate/identity';
import { type NextFunction, type Request, type Response, Router } from 'express';
import type { Logger } from 'pino';
import type { IpRules } from '../auth/ip-rules.ts';
import type { CallBucketStore } from '../budget/call-buckets.ts';
import type { GatewayConfig } from '../config.ts';
import { GatewayError } from '../errors.ts';
import { createResolveClientIp } from '../http/request-context.ts';
import type { SecretHasher } from '../keys/hasher.ts';
import type { KeyService } from '../keys/key-service.ts';
import { addIdentityHandlers, addPlanHandlers } from '../keys-api/budget-handlers.ts';
import { addBudgetHandlers, addUsageExportHandler } from '../keys-api/credits-handlers.ts';
import { parseJsonBody } from '../keys-api/json-body.ts';
import type { BudgetService } from '../plans/budget-service.ts';
import type { IdentityService } from '../plans/identity-service.ts';
import type { PlanService } from '../plans/plan-service.ts';
import { resetSandbox } from '../sandbox/reset-sandbox.ts';
import type { KeyStore } from '../store/store.ts';
import { addAdminAnalyticsRoutes } from './admin-analytics-routes.ts';
import { addKeyRoutes, adminCallerOf } from './admin-key-routes.ts';
import { addSessionRoutes, sessionOf } from './admin-session-routes.ts';
import { createOriginCheck } from './csrf.ts';
import { requestScheme } from './request-origin.ts';
import { createSessionService } from './session-service.ts';

/** What the admin router (`/admin`) and its API (`/admin/api`) are built from; app.ts passes it. */
export interface AdminDeps {
  config: Readonly<GatewayConfig>;
  store: KeyStore;
  hasher: SecretHasher;
  keyService: KeyService;
  /** Plans and identities at `/admin/api/plans` and `/admin/api/identities` (the handlers of the `/v2/auth` ones). */
  budget?: { plans: PlanService; identities: IdentityService; budgetService?: BudgetService };
  /** Proxies whose X-Forwarded-For / -Proto / -Host count (client IP, origin check, `Secure`). */
  trustedProxies: IpRules;
  /** Epoch ms. */
  clock: () => number;
  logger: Logger;
  /** Signs an identity for an upstream (the gateway's signer): the sandbox reset's call to the upstreams. */
  sign(identity: Identity, audience: string): Promise<string>;
  /** Calls over time (the usage meter's store): serves the keys' and identities' analytics. */
  usage?: CallBucketStore;
}

/** On every API answer, errors included: never cached, never sniffed as anything but its declared type. */
function setApiHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  next();
}

/**
 * `/admin/api`: JSON for the admin interface, reachable with an administrator session only (never
 * an API key). In order: no-store and nosniff, client IP (trusted proxies only), the origin check on every
 * state-changing call, login, the session guard (+ X-CSRF-Token), session, key, plan, identity and sandbox routes, and a
 * 404 for anything else so no admin request ever reaches the key pipeline.
 */
export function createAdminApiRouter(deps: AdminDeps): Router {
  const { config, trustedProxies } = deps;
  const sessions = createSessionService({
    store: deps.store,
    hasher: deps.hasher,
    clock: deps.clock,
    logger: deps.logger,
    idleMinutes: config.adminSessionIdleMinutes,
    maxHours: config.adminSessionMaxHours,
    maxLoginFailures: config.adminLoginMaxFailures,
    loginWindowMinutes: config.adminLoginWindowMinutes,
  });
  const router = Router({ caseSensitive: true, strict: false });
  router.use(setApiHeaders);
  router.use(createResolveClientIp(trustedProxies));
  router.use(createOriginCheck(trustedProxies));
  addSessionRoutes(router, {
    config,
    sessions,
    logger: deps.logger,
    schemeOf: (req) => requestScheme(req, trustedProxies),
  });
  const budgetService = deps.budget?.budgetService;
  // Before the key routes: `/keys/:id/usage?period=…` is billing usage (see credits-handlers.ts).
  if (budgetService) {
    const creditsDeps = {
      budgetService,
      keyService: deps.keyService,
      callerOf: adminCallerOf,
      bodySteps: [parseJsonBody],
    };
    addBudgetHandlers(router, '/keys/:id', 'key', creditsDeps);
    addBudgetHandlers(router, '/identities/:id', 'identity', creditsDeps);
    const usage = Router({ caseSensitive: true, strict: false });
    addUsageExportHandler(usage, creditsDeps);
    router.use('/usage', usage);
  }
  addKeyRoutes(router, deps.keyService);
  if (deps.usage) addAdminAnalyticsRoutes(router, { ...deps, usage: deps.usage });
  if (deps.budget) {
    const budgetDeps = { ...deps.budget, callerOf: adminCallerOf };
    addPlanHandlers(router, '/plans', budgetDeps);
    addIdentityHandlers(router, '/identities', budgetDeps);
  }
  // The test environment's data back to the seed (the interface asks for confirmation first).
  router.post('/sandbox/reset', async (_req, res) => {
    const reset = await resetSandbox(
      { table: config.routes, sign: deps.sign, store: deps.store, clock: deps.clock },
      { actor: { type: 'admin', id: sessionOf(res).userId }, sourceIp: res.locals.clientIp as string },
    );
    res.json({ reset });
  });
  router.use((req: Request) => {
    throw new GatewayError(
      'ROUTE_NOT_FOUND',
      `No admin API route for ${req.method} ${req.originalUrl.split('?')[0]}.`,
    );
  });
  return router;
}
