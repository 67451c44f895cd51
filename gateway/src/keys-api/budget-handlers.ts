import type { RequestHandler, Response, Router } from 'express';
import type { Identity, Plan } from '../model/budget.ts';
import type { IdentityService } from '../plans/identity-service.ts';
import type { PlanService } from '../plans/plan-service.ts';
import { answerRecorderOf } from './idempotency.ts';
import { parseJsonBody } from './json-body.ts';
import { type Caller, idOf } from './key-handlers.ts';

/** What the shared plan and identity handlers need from the API that mounts them. */
export interface BudgetHandlerDeps {
  plans: PlanService;
  identities: IdentityService;
  /** The caller of a request that passed the API's own authentication. */
  callerOf(res: Response): Caller;
  /** Honours Idempotency-Key on POST and PATCH, after their body is parsed (the API-key API only). */
  idempotency?: RequestHandler;
}

/** The body steps of a POST or PATCH: the JSON body, then Idempotency-Key when the API honours it. */
function bodyStepsOf(deps: BudgetHandlerDeps): RequestHandler[] {
  return deps.idempotency ? [parseJsonBody, deps.idempotency] : [parseJsonBody];
}

/**
 * The plan routes under `base` (`/v2/auth/plans` mounts them at `/`, the admin API at `/plans`):
 * create (201 + Location), list (`{items}`), read, PATCH and DELETE (204).
 */
export function addPlanHandlers(router: Router, base: string, deps: BudgetHandlerDeps): void {
  const { plans } = deps;
  const item = `${base === '/' ? '' : base}/:id`;
  router.post(base, ...bodyStepsOf(deps), async (req, res) => {
    const locationOf = (id: string) => `${req.baseUrl}${item.replace(':id', id)}`;
    const answer = answerRecorderOf(res, (plan: Plan) => ({
      status: 201,
      location: locationOf(plan.id),
      body: plan,
    }));
    const plan = await plans.createPlan(req.body, answer);
    res.status(201).location(locationOf(plan.id)).json(plan);
  });
  router.get(base, async (_req, res) => {
    res.json({ items: await plans.listPlans() });
  });
  router.get(item, async (req, res) => {
    res.json(await plans.getPlan(idOf(req)));
  });
  router.patch(item, ...bodyStepsOf(deps), async (req, res) => {
    const answer = answerRecorderOf(res, (plan: Plan) => ({ status: 200, body: plan }));
    res.json(await plans.updatePlan(idOf(req), req.body, answer));
  });
  router.delete(item, async (req, res) => {
    await plans.deletePlan(idOf(req));
    res.status(204).end();
  });
}

/**
 * The identity routes under `base` (`/v2/auth/identities` at `/`, the admin API at `/identities`):
 * create (201 + Location), list (`{items, nextCursor}`), read (with its keys), PATCH and DELETE (204).
 */
export function addIdentityHandlers(router: Router, base: string, deps: BudgetHandlerDeps): void {
  const { identities, callerOf } = deps;
  const item = `${base === '/' ? '' : base}/:id`;
  router.post(base, ...bodyStepsOf(deps), async (req, res) => {
    const locationOf = (id: string) => `${req.baseUrl}${item.replace(':id', id)}`;
    const answer = answerRecorderOf(res, (identity: Identity) => ({
      status: 201,
      location: locationOf(identity.id),
      body: identity,
    }));
    const identity = await identities.createIdentity(callerOf(res).actor, req.body, answer);
    res.status(201).location(locationOf(identity.id)).json(identity);
  });
  router.get(base, async (req, res) => {
    res.json(await identities.listIdentities(callerOf(res).actor, req.query));
  });
  router.get(item, async (req, res) => {
    res.json(await identities.getIdentity(callerOf(res).actor, idOf(req)));
  });
  router.patch(item, ...bodyStepsOf(deps), async (req, res) => {
    const answer = answerRecorderOf(res, (identity: Identity) => ({ status: 200, body: identity }));
    res.json(await identities.updateIdentity(callerOf(res).actor, idOf(req), req.body, answer));
  });
  router.delete(item, async (req, res) => {
    await identities.deleteIdentity(callerOf(res).actor, idOf(req));
    res.status(204).end();
  });
}
