import type { RequestHandler, Router } from 'express';
import type { BudgetService } from '../plans/budget-service.ts';
import type { IdentityService } from '../plans/identity-service.ts';
import type { PlanService } from '../plans/plan-service.ts';
import { addIdentityHandlers, addPlanHandlers } from './budget-handlers.ts';
import { addBudgetHandlers, addUsageExportHandler } from './credits-handlers.ts';
import { parseJsonBody } from './json-body.ts';
import { callerOf, createManagementRouter } from './router.ts';

/** What the plan and identity APIs need. */
export interface BudgetRoutersDeps {
  plans: PlanService;
  identities: IdentityService;
  budgetService: BudgetService;
  /** Honours Idempotency-Key on every POST and PATCH (createIdempotencyStep). */
  idempotency?: RequestHandler;
}

/**
 * `/v2/auth/plans` and `/v2/auth/identities`, mounted by the data plane AFTER authentication like
 * `/v2/auth/keys` (every route requires `auth:rw`). Changes are made by the calling key; identities
 * are those of its environment.
 * - plans: `POST /` → 201 plan; `GET /` → `{items}`; `GET /:id`; `PATCH /:id`; `DELETE /:id` → 204
 * - identities: `POST /` → 201 identity; `GET /?environment&limit&cursor` → `{items, nextCursor}`;
 *   `GET /:id` → identity with `keys`; `PATCH /:id`; `DELETE /:id` → 204; `GET|POST /:id/credits`;
 *   `GET /:id/usage?period` (billing usage of all its keys)
 * - usage: `GET /export?period&format=csv|jsonl` → every identity's usage of the period
 */
export function createBudgetRouters(deps: BudgetRoutersDeps): {
  plans: Router;
  identities: Router;
  usage: Router;
} {
  const handlerDeps = { ...deps, callerOf };
  const plans = createManagementRouter();
  addPlanHandlers(plans, '/', handlerDeps);
  const identities = createManagementRouter();
  const bodySteps = deps.idempotency ? [parseJsonBody, deps.idempotency] : [parseJsonBody];
  addBudgetHandlers(identities, '/:id', 'identity', { ...handlerDeps, bodySteps });
  addIdentityHandlers(identities, '/', handlerDeps);
  const usage = createManagementRouter();
  addUsageExportHandler(usage, handlerDeps);
  return { plans, identities, usage };
}
