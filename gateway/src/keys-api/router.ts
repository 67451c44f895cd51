import { type NextFunction, type Request, type RequestHandler, type Response, Router } from 'express';
import { principalOf } from '../auth/principal.ts';
import { routeOf } from '../auth/steps.ts';
import type { KeyService } from '../keys/key-service.ts';
import type { BudgetService } from '../plans/budget-service.ts';
import { addBudgetHandlers } from './credits-handlers.ts';
import { parseJsonBody } from './json-body.ts';
import { addKeyHandlers, type Caller } from './key-handlers.ts';
import { ListKeysQuerySchema } from './query-schemas.ts';

/** What the key-management API needs. */
export interface KeysRouterDeps {
  keyService: KeyService;
  /** Credits and billing usage of keys (`/:id/credits`, `/:id/usage?period`). */
  budgetService?: BudgetService;
  /** Honours Idempotency-Key on every POST (createIdempotencyStep). */
  idempotency?: RequestHandler;
}

/** The calling key as the actor, and its client IP as the change's source. */
export function callerOf(res: Response): Caller {
  const principal = principalOf(res);
  return { actor: { type: 'key', id: principal.key.id }, origin: { sourceIp: principal.clientIp } };
}

/**
 * Defence in depth: the pipeline required `auth:rw` only if the route matcher classified the path
 * as the management route. A request Express mounted here that the matcher classified otherwise
 * (a case or encoding difference between the two) is refused, never served.
 */
function requireManagementRoute(_req: Request, res: Response, next: NextFunction): void {
  if (routeOf(res)?.kind !== 'management') {
    throw new Error(
      'management router reached by a request the route table did not resolve to a management route',
    );
  }
  next();
}

/**
 * A router for a management prefix (`/v2/auth/keys`, `/plans`, `/identities`): case-sensitive paths
 * like the route matcher, refusing what the matcher did not classify as management (see
 * requireManagementRoute), every answer `Cache-Control: no-store`.
 */
export function createManagementRouter(): Router {
  const router = Router({ caseSensitive: true, strict: false });
  router.use(requireManagementRoute);
  router.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });
  return router;
}

/**
 * The key-management API, mounted by the data plane at `/v2/auth/keys` AFTER authentication
 * (every route requires `auth:rw`, enforced there). The caller is `principalOf(res)`; changes are
 * attributed to its key and client IP. Errors are thrown as GatewayErrors for the app's handler.
 *
 * - `POST /` create → 201 `{id, prefix, secret, …key}` + Location (the only time the token is shown)
 * - `GET /?status=` the caller's environment only → `{items: [key]}`
 * - `GET /:id` → key
 * - `POST /:id/scopes` `{scopes}` → key
 * - `PATCH /:id` `{planId?, identityId?, limits?, quotas?}` → key
 * - `DELETE /:id` revoke → 200 with the revoked key (its final state, for the caller's records)
 * - `POST /:id:rotate` `{overlapDays?}` → 200 `{id, prefix, secret, …key}` (the new token)
 * - `POST /:id:close-old-secret` `{secretId?}` → key (closes the old secret of a rotation now)
 * - `GET /:id/usage?from&to` → totals and per-secret usage (default last 24 h, at most 31 days);
 *   `GET /:id/usage?period=2026-11` → calls and spent cost of the period by outcome (billing)
 * - `GET /:id/credits`, `POST /:id/credits` `{set}|{increment}|{decrement}` → the key's own balance
 * - `GET /:id/activity?action&from&to&limit&cursor` → `{items, nextCursor}`
 * - `GET /:id/logs?secretId&from&to&limit&cursor` → `{items, nextCursor}`
 * Every POST and PATCH honours `Idempotency-Key` (keys-api/idempotency.ts).
 * Every response carries `Cache-Control: no-store`. Paths match case-sensitively, like the route
 * matcher, and a request whose matched route (`routeOf(res)`) is not the management route is
 * refused with 500 (a wiring bug, logged).
 */
export function createKeysRouter({ keyService, budgetService, idempotency }: KeysRouterDeps): Router {
  const router = createManagementRouter();
  // Before the key handlers: `GET /:id/usage?period=…` is billing usage, without `period` traffic usage.
  if (budgetService)
    addBudgetHandlers(router, '/:id', 'key', {
      budgetService,
      keyService,
      callerOf,
      bodySteps: idempotency ? [parseJsonBody, idempotency] : [parseJsonBody],
    });
  addKeyHandlers(router, {
    keyService,
    callerOf,
    listQuerySchema: ListKeysQuerySchema,
    idempotency,
    paths: {
      collection: '/',
      item: '/:id',
      rotate: '/:id\\:rotate',
      closeOldSecret: '/:id\\:close-old-secret',
    },
  });
  return router;
}
