import { UpdateKeyBudgetInputSchema } from '@keygate/contracts/gateway';
import type { KeyBudget } from '../model/budget.ts';
import type { Actor } from '../model/model.ts';
import { applyChange, loadKeyState, recorderOfState } from './change-runner.ts';
import { assertCanTouch } from './escalation.ts';
import { assertBudgetRefs, budgetOf, ownCreditsInIdentity, patchedCredits } from './key-budget.ts';
import { parseInput } from './key-input.ts';
import { prepare, viewOf } from './modify-key.ts';
import type { PublicKey } from './public-key.ts';
import type { RequestContext, ServiceContext } from './service-context.ts';

/** The budget fields a PATCH may replace (the balance changes through its own endpoint, `credits` its level). */
const PATCHABLE = ['planId', 'identityId', 'limits', 'quotas', 'credits'] as const;

/**
 * Replaces a key's plan, identity and overrides (`PATCH /v2/auth/keys/{id}`): each member given
 * replaces the key's, null leaves a plan or an identity; `credits: {lowAt}` sets the `credits.low` level
 * of the key's own credits (null removes it). Logged as `key.budget_changed` with the
 * changed members before and after; the same values again change nothing and log nothing. A
 * revoked or expired key may change too (it grants nothing): so it can leave an identity that is
 * to be deleted.
 */
export async function changeBudget(
  ctx: ServiceContext,
  actor: Actor,
  keyId: string,
  request: unknown,
  origin: RequestContext<PublicKey>,
): Promise<PublicKey> {
  const input = parseInput(UpdateKeyBudgetInputSchema, request);
  const actorKey = await prepare(ctx, actor, keyId);
  const { key: current } = await loadKeyState(ctx.store, keyId);
  await assertBudgetRefs(ctx.store, current.environment, input, actorKey !== null);
  const recorder = recorderOfState(origin.answer, (state) => viewOf(ctx, state));
  const state = await applyChange(
    ctx,
    keyId,
    { actor, sourceIp: origin.sourceIp },
    ({ key }) => {
      if (actorKey) assertCanTouch(actorKey, key);
      const budget = budgetOf(key);
      const { credits: creditsPatch, ...fields } = input;
      const wanted: Partial<KeyBudget> = {
        ...fields,
        ...(creditsPatch ? { credits: patchedCredits(budget.credits, creditsPatch, `Key ${key.id}`) } : {}),
      };
      const changed = PATCHABLE.filter(
        (field) =>
          wanted[field] !== undefined && JSON.stringify(wanted[field]) !== JSON.stringify(budget[field]),
      );
      if (changed.length === 0) return null;
      if (input.identityId && budget.credits) throw ownCreditsInIdentity('/identityId');
      const next: KeyBudget = { ...budget };
      const before: Record<string, unknown> = {};
      const after: Record<string, unknown> = {};
      for (const field of changed) {
        before[field] = budget[field];
        after[field] = wanted[field];
        Object.assign(next, { [field]: wanted[field] });
      }
      return { key: { ...key, ...next }, secrets: [], action: 'key.budget_changed', before, after };
    },
    recorder,
  );
  return viewOf(ctx, state);
}
