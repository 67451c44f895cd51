import {
  CreateIdentityInputSchema,
  type Identity,
  type IdentityWithKeys,
  ListIdentitiesQuerySchema,
  UpdateIdentityInputSchema,
} from '@keygate/contracts/gateway';
import { GatewayError } from '../errors.ts';
import { resolveActorKey } from '../keys/change-runner.ts';
import { creditsConfigOf, identityNotFound, patchedCredits, planNotFound } from '../keys/key-budget.ts';
import { parseInput, validationError } from '../keys/key-input.ts';
import { toPublicKey } from '../keys/public-key.ts';
import { withCursor } from '../keys/read-key.ts';
import type { AnswerRecorder } from '../keys/service-context.ts';
import { newId } from '../keys/token.ts';
import type { Actor } from '../model/model.ts';
import type { Page } from '../store/store.ts';
import { type BudgetServiceDeps, withOneRetry } from './budget-context.ts';

/**
 * Identities: an integrator's customers, whose keys share one budget. Rules:
 * - an identity belongs to one environment and its `externalId` is unique there (409 IDENTITY_EXISTS);
 * - a key actor sees and creates identities of its own environment only (the environment defaults
 *   to its own; another is 403 ESCALATION_DENIED, an identity of another reads as 404);
 * - the plan named must exist (404 PLAN_NOT_FOUND);
 * - an identity with keys cannot be deleted (409 IDENTITY_HAS_KEYS).
 * Every change bumps its version and is announced (`publishBudget`).
 */
export interface IdentityService {
  /** Creates an identity (version 1) with its starting credit balance, if it holds credits. */
  createIdentity(actor: Actor, input: unknown, answer?: AnswerRecorder<Identity>): Promise<Identity>;
  /** One identity with its keys (public views, newest first). */
  getIdentity(actor: Actor, id: string): Promise<IdentityWithKeys>;
  /** Identities newest first, paged; a key actor sees its own environment only. */
  listIdentities(actor: Actor, query: unknown): Promise<Page<Identity>>;
  /**
   * Replaces the members given (plan, meta, overrides, the `credits.low` level of its own credits:
   * 409 CREDITS_NOT_HELD without them); the same values change nothing.
   */
  updateIdentity(
    actor: Actor,
    id: string,
    input: unknown,
    answer?: AnswerRecorder<Identity>,
  ): Promise<Identity>;
  /** Deletes an identity without keys (and its credit balance). */
  deleteIdentity(actor: Actor, id: string): Promise<void>;
}

/** Builds the identity service from its ports. */
export function createIdentityService(deps: BudgetServiceDeps): IdentityService {
  const { store, events, clock } = deps;
  /** The identity if the actor may see it (a key: its own environment), else 404. */
  const readable = async (actor: Actor, id: string) => {
    const actorKey = await resolveActorKey(deps, actor);
    const identity = await store.getIdentity(id);
    if (!identity || (actorKey && identity.environment !== actorKey.environment)) throw identityNotFound(id);
    return identity;
  };
  const assertPlan = async (planId: string | null | undefined) => {
    if (planId && !(await store.getPlan(planId))) throw planNotFound(planId);
  };
  return {
    async createIdentity(actor, request, answer) {
      const input = parseInput(CreateIdentityInputSchema, request);
      const actorKey = await resolveActorKey(deps, actor);
      const environment = input.environment ?? actorKey?.environment;
      if (!environment)
        throw validationError([
          { detail: 'environment is required (live or test)', pointer: '/environment' },
        ]);
      if (actorKey && environment !== actorKey.environment) {
        throw new GatewayError(
          'ESCALATION_DENIED',
          `A ${actorKey.environment} key can only manage ${actorKey.environment} identities.`,
          { rule: 'environment' },
        );
      }
      await assertPlan(input.planId);
      const nowMs = clock();
      const at = new Date(nowMs).toISOString();
      const identity: Identity = {
        id: newId('idt'),
        externalId: input.externalId,
        environment,
        planId: input.planId ?? null,
        meta: input.meta ?? {},
        limits: input.limits ?? [],
        quotas: input.quotas ?? [],
        credits: input.credits ? creditsConfigOf(input.credits) : null,
        createdAt: at,
        updatedAt: at,
        version: 1,
      };
      const creditsBalance = input.credits
        ? { remaining: input.credits.remaining, refilledAt: nowMs }
        : undefined;
      const idempotency = answer?.recordOf(identity);
      const creation = { identity, ...(creditsBalance ? { creditsBalance } : {}) };
      if (!(await store.createIdentity(creation, idempotency))) {
        await assertPlan(input.planId);
        // A lease lost to another request under the same Idempotency-Key, not a taken external id.
        if (idempotency && !(await store.findIdentityByExternalId(environment, identity.externalId)))
          throw new GatewayError('CONFLICT', 'The identity could not be created; retry the request.');
        throw new GatewayError(
          'IDENTITY_EXISTS',
          `An identity with externalId "${identity.externalId}" exists in ${environment}.`,
        );
      }
      if (idempotency) answer?.committed(idempotency);
      events.publishBudget({ kind: 'identity', id: identity.id });
      return identity;
    },
    async getIdentity(actor, id) {
      const identity = await readable(actor, id);
      const keys = await store.listKeysOfIdentity(id);
      const nowMs = clock();
      const views = await Promise.all(
        keys.map(async (key) => toPublicKey(key, await store.listSecrets(key.id), nowMs)),
      );
      return { ...identity, keys: views };
    },
    async listIdentities(actor, rawQuery) {
      const query = parseInput(ListIdentitiesQuerySchema, rawQuery);
      const actorKey = await resolveActorKey(deps, actor);
      const environment = actorKey ? actorKey.environment : query.environment;
      return withCursor(() => store.listIdentities({ ...query, environment }));
    },
    async updateIdentity(actor, id, request, answer) {
      const input = parseInput(UpdateIdentityInputSchema, request);
      await readable(actor, id);
      await assertPlan(input.planId);
      return withOneRetry(`Identity ${id}`, async () => {
        const current = await readable(actor, id);
        const merged: Identity = {
          ...current,
          ...input,
          planId: input.planId === undefined ? current.planId : input.planId,
          credits: input.credits
            ? patchedCredits(current.credits, input.credits, `Identity ${id}`)
            : current.credits,
        };
        if (JSON.stringify(merged) === JSON.stringify(current)) return current;
        const next = { ...merged, version: current.version + 1, updatedAt: new Date(clock()).toISOString() };
        const idempotency = answer?.recordOf(next);
        if (!(await store.updateIdentity(next, current.version, idempotency))) {
          await assertPlan(input.planId);
          return false;
        }
        if (idempotency) answer?.committed(idempotency);
        events.publishBudget({ kind: 'identity', id });
        return next;
      });
    },
    async deleteIdentity(actor, id) {
      await readable(actor, id);
      const outcome = await store.deleteIdentity(id);
      if (outcome === 'missing') throw identityNotFound(id);
      if (outcome === 'in_use') {
        throw new GatewayError(
          'IDENTITY_HAS_KEYS',
          `Identity ${id} still has keys (revoked ones too); move them to another identity, or none, first.`,
        );
      }
      events.publishBudget({ kind: 'identity', id });
    },
  };
}
