import {
  type CreatePlanInput,
  CreatePlanInputSchema,
  type Plan,
  UpdatePlanInputSchema,
} from '@keygate/contracts/gateway';
import { GatewayError } from '../errors.ts';
import { parseInput } from '../keys/key-input.ts';
import type { AnswerRecorder } from '../keys/service-context.ts';
import { newId } from '../keys/token.ts';
import { type BudgetServiceDeps, withOneRetry } from './budget-context.ts';

/**
 * Plans: named limits, quotas and a credits refill that keys and identities name. They belong to
 * no environment: any caller with `auth:rw` manages them. Every change bumps the plan's version and
 * is announced (`publishBudget`), so every instance applies it to every key on the plan at once.
 */
export interface PlanService {
  /** Creates a plan (version 1), with the request's Idempotency-Key record when `answer` is given. */
  createPlan(input: unknown, answer?: AnswerRecorder<Plan>): Promise<Plan>;
  /** One plan; 404 PLAN_NOT_FOUND. */
  getPlan(id: string): Promise<Plan>;
  /** Every plan, newest first. */
  listPlans(): Promise<Plan[]>;
  /** Replaces the members given (limits and quotas as whole lists); the same values change nothing. */
  updatePlan(id: string, input: unknown, answer?: AnswerRecorder<Plan>): Promise<Plan>;
  /** Deletes a plan no key or identity names; 409 PLAN_IN_USE otherwise. */
  deletePlan(id: string): Promise<void>;
}

/** Builds the plan service from its ports. */
export function createPlanService({ store, events, clock }: BudgetServiceDeps): PlanService {
  const notFound = (id: string) => new GatewayError('PLAN_NOT_FOUND', `No plan ${id}.`);
  const load = async (id: string) => {
    const plan = await store.getPlan(id);
    if (!plan) throw notFound(id);
    return plan;
  };
  return {
    async createPlan(request, answer) {
      const input: CreatePlanInput = parseInput(CreatePlanInputSchema, request);
      const at = new Date(clock()).toISOString();
      const plan: Plan = {
        id: newId('plan'),
        name: input.name,
        limits: input.limits,
        quotas: input.quotas,
        credits: input.credits ?? null,
        createdAt: at,
        updatedAt: at,
        version: 1,
      };
      const idempotency = answer?.recordOf(plan);
      if (!(await store.createPlan(plan, idempotency)))
        throw new GatewayError('CONFLICT', 'The plan could not be created; retry.');
      if (idempotency) answer?.committed(idempotency);
      events.publishBudget({ kind: 'plan', id: plan.id });
      return plan;
    },
    getPlan: load,
    listPlans: () => store.listPlans(),
    async updatePlan(id, request, answer) {
      const input = parseInput(UpdatePlanInputSchema, request);
      return withOneRetry(`Plan ${id}`, async () => {
        const current = await load(id);
        const fields = { ...input, credits: input.credits === undefined ? current.credits : input.credits };
        const merged = { ...current, ...fields };
        if (JSON.stringify(merged) === JSON.stringify(current)) return current;
        const next: Plan = {
          ...merged,
          version: current.version + 1,
          updatedAt: new Date(clock()).toISOString(),
        };
        const idempotency = answer?.recordOf(next);
        if (!(await store.updatePlan(next, current.version, idempotency))) return false;
        if (idempotency) answer?.committed(idempotency);
        events.publishBudget({ kind: 'plan', id });
        return next;
      });
    },
    async deletePlan(id) {
      const outcome = await store.deletePlan(id);
      if (outcome === 'missing') throw notFound(id);
      if (outcome === 'in_use') {
        throw new GatewayError(
          'PLAN_IN_USE',
          `Plan ${id} is named by a key or an identity; move them to another plan (or none) first.`,
        );
      }
      events.publishBudget({ kind: 'plan', id });
    },
  };
}
