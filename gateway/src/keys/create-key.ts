import type { z } from 'zod';
import { GatewayError } from '../errors.ts';
import type { CreditsBalance, KeyBudget } from '../model/budget.ts';
import { utcDate } from '../model/lifecycle.ts';
import type { Actor, ApiKey, KeyChange } from '../model/model.ts';
import { resolveActorKey } from './change-runner.ts';
import { assertGrantWithin, type Grant } from './escalation.ts';
import { assertBudgetRefs, newKeyBudget } from './key-budget.ts';
import { CreateKeyInputSchema, parseInput, validationError } from './key-input.ts';
import { type PublicKey, snapshotKey, toPublicKey } from './public-key.ts';
import { newSecretRecord } from './rotation.ts';
import type { RequestContext, ServiceContext } from './service-context.ts';
import { generateToken, newId } from './token.ts';

/** What a creation accepts (see CreateKeyInputSchema for fields and bounds). */
export type CreateKeyRequest = z.input<typeof CreateKeyInputSchema>;

/** A new key and its token; the token is shown here and never again. */
export interface CreatedKey {
  key: PublicKey;
  secret: string;
}

/** Validates the input, applies the no-escalation rules for key actors, stores key + secret + activity. */
export async function createKey(
  ctx: ServiceContext,
  actor: Actor,
  request: CreateKeyRequest,
  origin: RequestContext<CreatedKey>,
): Promise<CreatedKey> {
  const input = parseInput(CreateKeyInputSchema, request);
  const actorKey = await resolveActorKey(ctx, actor);
  const nowMs = ctx.clock();
  const environment = input.environment ?? actorKey?.environment;
  if (!environment)
    throw validationError([{ detail: 'environment is required (live or test)', pointer: '/environment' }]);
  const expiresAt = input.expiresAt ?? null;
  if (expiresAt !== null && expiresAt < utcDate(nowMs)) {
    throw validationError([{ detail: `${expiresAt} is in the past`, pointer: '/expiresAt' }]);
  }
  const defaultLimit = Math.min(
    ctx.config.defaultRateLimitPerMinute,
    actorKey?.rateLimit.perMinute ?? Number.POSITIVE_INFINITY,
  );
  const grant: Grant = {
    environment,
    scopes: input.scopes,
    expiresAt,
    ipAllowlist: input.ipAllowlist ?? [],
    rateLimit: { perMinute: input.rateLimit?.perMinute ?? defaultLimit },
  };
  if (actorKey) assertGrantWithin(actorKey, grant);
  await assertBudgetRefs(ctx.store, environment, input, actorKey !== null);
  const { budget, creditsBalance } = newKeyBudget(input, nowMs);

  const token = generateToken(environment);
  const change = newKeyChange({
    name: input.name,
    grant,
    budget,
    creditsBalance,
    token,
    hash: await ctx.hasher.hash(token.token),
    tag: ctx.hasher.tag?.(token.token) ?? null,
    at: new Date(nowMs).toISOString(),
    actor,
    sourceIp: origin.sourceIp,
  });
  const created = {
    key: toPublicKey(change.key, change.secrets, nowMs, ctx.config.expiryReminderDays[0]),
    secret: token.token,
  };
  const idempotency = origin.answer?.recordOf(created);
  const committed = await ctx.store.commitChange(idempotency ? { ...change, idempotency } : change);
  if (!committed) {
    // The plan or identity may have gone since it was checked: say so rather than "retry".
    await assertBudgetRefs(ctx.store, environment, input, actorKey !== null);
    throw new GatewayError('CONFLICT', 'The key could not be created; retry the request.');
  }
  if (idempotency) origin.answer?.committed(idempotency);
  ctx.events.publish(
    change.key.id,
    change.secrets.map((secret) => secret.lookup),
  );
  return created;
}

/**
 * The change that creates a key (version 1, active): the key record with its grant, its one secret
 * from `token` (stored as `hash`) and the `key.created` activity by `actor`. No I/O, no checks.
 */
export function newKeyChange(params: {
  name: string;
  grant: Grant;
  /** The key's plan, identity, overrides and credits config; none when absent. */
  budget?: KeyBudget;
  /** The starting credit balance, written with the key. */
  creditsBalance?: CreditsBalance;
  token: { lookup: string; prefix: string };
  hash: string;
  tag?: string | null;
  at: string;
  actor: Actor;
  sourceIp: string | null;
}): KeyChange {
  const { grant, token, at } = params;
  const key: ApiKey = {
    id: newId('key'),
    name: params.name,
    ...grant,
    ...(params.budget ?? { identityId: null, planId: null, limits: [], quotas: [], credits: null }),
    prefix: token.prefix,
    status: 'active',
    revokedAt: null,
    remindersSent: [],
    createdAt: at,
    updatedAt: at,
    lastCallAt: null,
    version: 1,
  };
  const secret = newSecretRecord(key.id, { ...token, hash: params.hash, tag: params.tag }, at);
  return {
    key,
    expectedVersion: null,
    ...(params.creditsBalance ? { creditsBalance: params.creditsBalance } : {}),
    secrets: [secret],
    activity: {
      id: newId('act'),
      keyId: key.id,
      environment: grant.environment,
      action: 'key.created',
      actor: params.actor,
      at,
      sourceIp: params.sourceIp,
      before: null,
      after: snapshotKey(key),
      details: { secretId: secret.id },
    },
  };
}
