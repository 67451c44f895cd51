import { GatewayError } from '../errors.ts';
import { isSecretUsable, openOldSecrets } from '../model/lifecycle.ts';
import type { Actor, ApiKey, SecretRecord } from '../model/model.ts';
import {
  applyChange,
  assertKeyActive,
  type ChangeOrigin,
  type KeyState,
  loadKeyState,
  recorderOfState,
  resolveActorKey,
  type StateRecorder,
} from './change-runner.ts';
import { assertCanTouch, assertGrantWithin, assertScopeChange, keyNotFound } from './escalation.ts';
import { parseInput, RotateKeyInputSchema, ScopesSchema } from './key-input.ts';
import { type PublicKey, snapshotSecret, toPublicKey } from './public-key.ts';
import { planRotation } from './rotation.ts';
import type { RequestContext, ServiceContext } from './service-context.ts';
import { closeEndedOverlaps } from './sweep.ts';
import { generateToken } from './token.ts';

/** The key's view at the service's clock. */
export function viewOf(ctx: ServiceContext, state: KeyState): PublicKey {
  return toPublicKey(state.key, state.secrets, ctx.clock(), ctx.config.expiryReminderDays[0]);
}

/** Loads the acting key and checks, before any work, that it may see the target (404 otherwise). */
export async function prepare(ctx: ServiceContext, actor: Actor, keyId: string): Promise<ApiKey | null> {
  const actorKey = await resolveActorKey(ctx, actor);
  if (actorKey) {
    const target = await ctx.store.getKey(keyId);
    if (!target || target.environment !== actorKey.environment) throw keyNotFound(keyId);
  }
  return actorKey;
}

/** Replaces a key's scopes; the same scopes again change nothing and log nothing. */
export async function changeScopes(
  ctx: ServiceContext,
  actor: Actor,
  keyId: string,
  requested: readonly string[],
  origin: RequestContext<PublicKey>,
): Promise<PublicKey> {
  const scopes = parseInput(ScopesSchema, requested, '/scopes');
  const actorKey = await prepare(ctx, actor, keyId);
  const recorder = recorderOfState(origin.answer, (state) => viewOf(ctx, state));
  const change = { actor, sourceIp: origin.sourceIp };
  const state = await applyChange(
    ctx,
    keyId,
    change,
    ({ key }, nowMs) => {
      assertKeyActive(key, nowMs);
      if (actorKey) {
        assertCanTouch(actorKey, key);
        assertScopeChange(actorKey, key, scopes);
      }
      if (scopes.join(' ') === key.scopes.join(' ')) return null;
      return {
        key: { ...key, scopes },
        secrets: [],
        action: 'key.scopes_changed',
        before: { scopes: key.scopes },
        after: { scopes },
      };
    },
    recorder,
  );
  return viewOf(ctx, state);
}

/**
 * Revokes a key: status revoked, and every secret still usable closed now with reason `revoked`.
 * Secrets already closed keep their record. Secrets whose overlap ended but that no sweep closed yet
 * are first closed as the sweep would (`closedAt = closesAt`, reason `overlap_ended`, one
 * `key.secret_closed` entry each, by the system), so the activity log records every overlap end; one
 * ending in the instant between those steps is closed the same way inside the revoke
 * (`details.overlapEndedSecretIds`).
 */
export async function revokeKey(
  ctx: ServiceContext,
  actor: Actor,
  keyId: string,
  origin: RequestContext,
): Promise<PublicKey> {
  const actorKey = await prepare(ctx, actor, keyId);
  const checkRevocable = (key: ApiKey, nowMs: number) => {
    assertKeyActive(key, nowMs, { allowExpired: true });
    if (actorKey) assertCanTouch(actorKey, key);
  };
  checkRevocable((await loadKeyState(ctx.store, keyId)).key, ctx.clock());
  await closeEndedOverlaps(ctx, keyId, ctx.clock());
  const state = await applyChange(ctx, keyId, { actor, ...origin }, ({ key, secrets }, nowMs) => {
    checkRevocable(key, nowMs);
    const at = new Date(nowMs).toISOString();
    const unclosed = secrets.filter((secret) => secret.closedAt === null);
    const revoked = unclosed
      .filter((secret) => isSecretUsable(secret, nowMs))
      .map((secret): SecretRecord => ({ ...secret, closedAt: at, closedReason: 'revoked' }));
    const ended = unclosed
      .filter((secret) => !isSecretUsable(secret, nowMs))
      .map(
        (secret): SecretRecord => ({ ...secret, closedAt: secret.closesAt, closedReason: 'overlap_ended' }),
      );
    return {
      key: { ...key, status: 'revoked', revokedAt: at },
      secrets: [...revoked, ...ended],
      action: 'key.revoked',
      before: { status: key.status, revokedAt: key.revokedAt },
      after: { status: 'revoked', revokedAt: at },
      details: {
        closedSecretIds: revoked.map((secret) => secret.id),
        ...(ended.length > 0 ? { overlapEndedSecretIds: ended.map((secret) => secret.id) } : {}),
      },
    };
  });
  return viewOf(ctx, state);
}

/**
 * Rotates a key: a new secret with the same permissions; the old one keeps working until
 * `now + min(overlapDays, maxOverlapDays)` but never past the key's expiry. With 0 the old secret
 * ends at once (in the rotation's commit) and a second change closes it by hand, logging
 * `key.secret_closed` (reason `manual`, by the rotating actor); should that second change fail, the
 * old secret is unusable all the same and the sweep closes it (reason `overlap_ended`).
 * Refused (409 ROTATION_IN_PROGRESS) while an older secret is still open.
 */
export async function rotateKey(
  ctx: ServiceContext,
  actor: Actor,
  keyId: string,
  request: { overlapDays?: number },
  origin: RequestContext<{ key: PublicKey; secret: string }>,
): Promise<{ key: PublicKey; secret: string }> {
  const { overlapDays } = parseInput(RotateKeyInputSchema, request);
  const actorKey = await prepare(ctx, actor, keyId);
  const target = await ctx.store.getKey(keyId);
  if (!target) throw keyNotFound(keyId);
  const token = generateToken(target.environment);
  const hash = await ctx.hasher.hash(token.token);
  let endedAtOnce = null as string | null;
  const recorder = recorderOfState(origin.answer, (state) => ({
    key: viewOf(ctx, state),
    secret: token.token,
  }));
  // With overlap 0 the answer is the state after the second change: its record goes in with that one.
  const rotation = recorder && {
    recordOf: (state: KeyState) => (endedAtOnce === null ? recorder.recordOf(state) : undefined),
    committed: recorder.committed,
  };
  const change = { actor, sourceIp: origin.sourceIp };
  let state = await applyChange(
    ctx,
    keyId,
    change,
    ({ key, secrets }, nowMs) => {
      assertKeyActive(key, nowMs);
      // Rotation hands out a credential with the key's powers: it must be one the actor could create.
      if (actorKey) {
        assertCanTouch(actorKey, key);
        assertGrantWithin(actorKey, key, key.scopes);
      }
      const plan = planRotation({ key, secrets }, nowMs, {
        secret: {
          lookup: token.lookup,
          prefix: token.prefix,
          hash,
          tag: ctx.hasher.tag?.(token.token) ?? null,
        },
        overlapDays,
        maxOverlapDays: ctx.config.maxOverlapDays,
      });
      endedAtOnce = plan.details?.overlapDays === 0 ? (plan.details.previousSecretId as string | null) : null;
      return plan;
    },
    rotation,
  );
  if (endedAtOnce !== null) state = await closeEndedAtOnce(ctx, keyId, endedAtOnce, change, recorder);
  return { key: viewOf(ctx, state), secret: token.token };
}

/** Closes by hand the old secret a rotation with overlap 0 ended at once, logging `key.secret_closed`. */
function closeEndedAtOnce(
  ctx: ServiceContext,
  keyId: string,
  secretId: string,
  origin: ChangeOrigin,
  recorder?: StateRecorder,
) {
  return applyChange(
    ctx,
    keyId,
    origin,
    ({ key, secrets }) => {
      const secret = secrets.find((candidate) => candidate.id === secretId);
      if (!secret || secret.closedAt !== null) return null;
      const closed: SecretRecord = { ...secret, closedAt: secret.closesAt, closedReason: 'manual' };
      return {
        key,
        secrets: [closed],
        action: 'key.secret_closed',
        before: { secrets: [snapshotSecret(secret)] },
        after: { secrets: [snapshotSecret(closed)] },
        details: { secretIds: [secret.id], reason: 'manual' },
      };
    },
    recorder,
  );
}

/** Closes an old secret at once (the given one, or every old secret still open). */
export async function closeSecret(
  ctx: ServiceContext,
  actor: Actor,
  keyId: string,
  secretId: string | undefined,
  origin: RequestContext<PublicKey>,
): Promise<PublicKey> {
  const actorKey = await prepare(ctx, actor, keyId);
  const recorder = recorderOfState(origin.answer, (state) => viewOf(ctx, state));
  const change = { actor, sourceIp: origin.sourceIp };
  const state = await applyChange(
    ctx,
    keyId,
    change,
    ({ key, secrets }, nowMs) => {
      assertKeyActive(key, nowMs, { allowExpired: true });
      if (actorKey) assertCanTouch(actorKey, key);
      if (secretId !== undefined && !secrets.some((secret) => secret.id === secretId)) {
        throw new GatewayError('SECRET_NOT_FOUND', `Key ${keyId} has no secret ${secretId}.`);
      }
      const open = openOldSecrets(key, secrets, nowMs).filter(
        (s) => secretId === undefined || s.id === secretId,
      );
      if (open.length === 0) {
        throw new GatewayError(
          'NO_ROTATION_IN_PROGRESS',
          secretId === undefined
            ? `Key ${keyId} has no old secret open.`
            : `Secret ${secretId} is not an open old secret (it is closed, or the key's current secret).`,
        );
      }
      const at = new Date(nowMs).toISOString();
      const closed = open.map(
        (secret): SecretRecord => ({ ...secret, closedAt: at, closedReason: 'manual' }),
      );
      return {
        key,
        secrets: closed,
        action: 'key.secret_closed',
        before: { secrets: open.map(snapshotSecret) },
        after: { secrets: closed.map(snapshotSecret) },
        details: { secretIds: closed.map((secret) => secret.id), reason: 'manual' },
      };
    },
    recorder,
  );
  return viewOf(ctx, state);
}
