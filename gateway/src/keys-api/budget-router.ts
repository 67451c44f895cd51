import type { RequestHandler, Router } from 'express';
import type { IdentityService } from '../plans/identity-service.ts';
import type { PlanService } from '../plans/plan-service.ts';
import { addIdentityHandlers, addPlanHandlers } from './budget-handlers.ts';
import { callerOf, createManagementRouter } from './router.ts';

/** What the plan and identity APIs need. */
export interface BudgetRoutersDeps {
  plans: PlanService;
  identities: IdentityService;
  /** Honours Idempotency-Key on every POST and PATCH (createIdempotencyStep). */
  idempotency?: RequestHandler;
}

/**
 * `/v2/auth/plans` and `/v2/auth/identities`, mounted by the data plane AFTER authentication like
 * `/v2/auth/keys` (every route requires `auth:rw`). Changes are made by the calling key; identities
 * are those of its environment.
 * - plans: `POST /` → 201 plan; `GET /` → `{items}`; `GET /:id`; `PATCH /:id`; `DELETE /:id` → 204
 * - identities: `POST /` → 201 identity; `GET /?environment&limit&cursor` → `{items, nextCursor}`;
 *   `GET /:id` → identity with `keys`; `PATCH /:id`; `DELETE /:id` → 204
 */
export function createBudgetRouters(deps: BudgetRoutersDeps): { plans: Router; identities: Router } {
  const handlerDeps = { ...deps, callerOf };
  const plans = createManagementRouter();
  addPlanHandlers(plans, '/', handlerDeps);
  const identities = createManagementRouter();
  addIdentityHandlers(identities, '/', handlerDeps);
  return { plans, identities };
}
