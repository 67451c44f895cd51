import { GatewayError } from '../errors.ts';
import { applyChange, assertKeyActive, type KeyState, resolveActorKey } from './change-runner.ts';
import { assertCanTouch, assertGrantWithin, assertScopeChange, keyNotFound } from './escalation.ts';
import { parseInput, RotateKeyInputSchema, ScopesSchema } from './key-input.ts';
import { openOldSecrets } from './lifecycle.ts';
import type { Actor, ApiKey, SecretRecord } from './model.ts';
import { type PublicKey, snapshotSecret, toPublicKey } from './public-key.ts';
import { planRotation } from './rotation.ts';
import type { RequestContext, ServiceContext } from './service-context.ts';
import { generateToken } from './token.ts';

/** The key's view at the service's clock. */
export function viewOf(ctx: ServiceContext, state: KeyState): PublicKey {
  return toPublicKey(state.key, state.secrets, ctx.clock(), ctx.config.expiryReminderDays[0]);
}

/** Loads the acting key and checks, before any work, that it may see the target (404 otherwise). */
async function prepare(ctx: ServiceContext, actor: Actor, keyId: string): Promise<ApiKey | null> {
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
  origin: RequestContext,
): Promise<PublicKey> {
  const scopes = parseInput(ScopesSchema, requested, '/scopes');
  const actorKey = await prepare(ctx, actor, keyId);
  const state = await applyChange(ctx, keyId, { actor, ...origin }, ({ key }, nowMs) => {
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
  });
  return viewOf(ctx, state);
}

/** Revokes a key: status revoked and every open secret closed with reason `revoked`. */
export async function revokeKey(
  ctx: ServiceContext,
  actor: Actor,
  keyId: string,
  origin: RequestContext,
): Promise<PublicKey> {
  const actorKey = await prepare(ctx, actor, keyId);
  const state = await applyChange(ctx, keyId, { actor, ...origin }, ({ key, secrets }, nowMs) => {
    assertKeyActive(key, nowMs, { allowExpired: true });
    if (actorKey) assertCanTouch(actorKey, key);
    const at = new Date(nowMs).toISOString();
    const closed = secrets
      .filter((secret) => secret.closedAt === null)
      .map((secret): SecretRecord => ({ ...secret, closedAt: at, closedReason: 'revoked' }));
    return {
      key: { ...key, status: 'revoked', revokedAt: at },
      secrets: closed,
      action: 'key.revoked',
      before: { status: key.status, revokedAt: key.revokedAt },
      after: { status: 'revoked', revokedAt: at },
      details: { closedSecretIds: closed.map((secret) => secret.id) },
    };
  });
  return viewOf(ctx, state);
}

/**
 * Rotates a key: a new secret with the same permissions; the old one keeps working until
 * `now + min(overlapDays, maxOverlapDays)` but never past the key's expiry; 0 closes it at once.
 * Refused (409 ROTATION_IN_PROGRESS) while an older secret is still open.
 */
export async function rotateKey(
  ctx: ServiceContext,
  actor: Actor,
  keyId: string,
  request: { overlapDays?: number },
  origin: RequestContext,
): Promise<{ key: PublicKey; secret: string }> {
  const { overlapDays } = parseInput(RotateKeyInputSchema, request);
  const actorKey = await prepare(ctx, actor, keyId);
  const target = await ctx.store.getKey(keyId);
  if (!target) throw keyNotFound(keyId);
  const token = generateToken(target.environment);
  const hash = await ctx.hasher.hash(token.token);
  const state = await applyChange(ctx, keyId, { actor, ...origin }, ({ key, secrets }, nowMs) => {
    assertKeyActive(key, nowMs);
    // Rotation hands out a credential with the key's powers: it must be one the actor could create.
    if (actorKey) {
      assertCanTouch(actorKey, key);
      assertGrantWithin(actorKey, key, key.scopes);
    }
    return planRotation({ key, secrets }, nowMs, {
      secret: { lookup: token.lookup, prefix: token.prefix, hash },
      overlapDays,
      maxOverlapDays: ctx.config.maxOverlapDays,
    });
  });
  return { key: viewOf(ctx, state), secret: token.token };
}

/** Closes an old secret at once (the given one, or every old secret still open). */
export async function closeSecret(
  ctx: ServiceContext,
  actor: Actor,
  keyId: string,
  secretId: string | undefined,
  origin: RequestContext,
): Promise<PublicKey> {
  const actorKey = await prepare(ctx, actor, keyId);
  const state = await applyChange(ctx, keyId, { actor, ...origin }, ({ key, secrets }, nowMs) => {
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
    const closed = open.map((secret): SecretRecord => ({ ...secret, closedAt: at, closedReason: 'manual' }));
    return {
      key,
      secrets: closed,
      action: 'key.secret_closed',
      before: { secrets: open.map(snapshotSecret) },
      after: { secrets: closed.map(snapshotSecret) },
      details: { secretIds: closed.map((secret) => secret.id), reason: 'manual' },
    };
  });
  return viewOf(ctx, state);
}
