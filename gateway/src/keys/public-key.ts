import {
  DEFAULT_VIEW_REMINDER_DAYS,
  MAX_LISTED_SECRETS,
  type PublicKey,
  type PublicSecret,
} from '@keygate/contracts/gateway';
import { expiryReminder, isKeyExpired, isSecretUsable, openOldSecrets } from '../model/lifecycle.ts';
import type { ApiKey, SecretRecord } from '../model/model.ts';

export { DEFAULT_VIEW_REMINDER_DAYS, MAX_LISTED_SECRETS, type PublicKey, type PublicSecret };

/** The secret fields safe to show. */
export function toPublicSecret(secret: SecretRecord, nowMs: number): PublicSecret {
  return {
    id: secret.id,
    prefix: secret.prefix,
    createdAt: secret.createdAt,
    closesAt: secret.closesAt,
    closedAt: secret.closedAt,
    closedReason: secret.closedReason,
    usable: isSecretUsable(secret, nowMs),
    callCount: secret.callCount,
    lastCallAt: secret.lastCallAt,
  };
}

/** The public view of a key with its secrets (`secrets` newest first, as the store lists them). */
export function toPublicKey(
  key: ApiKey,
  secrets: readonly SecretRecord[],
  nowMs: number,
  reminderLeadDays: number = DEFAULT_VIEW_REMINDER_DAYS,
): PublicKey {
  return {
    id: key.id,
    name: key.name,
    environment: key.environment,
    scopes: [...key.scopes],
    expiresAt: key.expiresAt,
    ipAllowlist: [...key.ipAllowlist],
    rateLimit: { perMinute: key.rateLimit.perMinute },
    prefix: key.prefix,
    status: key.status,
    revokedAt: key.revokedAt,
    expired: isKeyExpired(key, nowMs),
    expiryReminder: key.status === 'active' ? expiryReminder(key, nowMs, reminderLeadDays) : null,
    lastCallAt: key.lastCallAt,
    createdAt: key.createdAt,
    updatedAt: key.updatedAt,
    version: key.version,
    identityId: key.identityId ?? null,
    planId: key.planId ?? null,
    limits: structuredClone(key.limits ?? []),
    quotas: structuredClone(key.quotas ?? []),
    credits: key.credits ? creditsView(key.credits) : null,
    rotation: {
      inProgress: key.status === 'active' && openOldSecrets(key, secrets, nowMs).length > 0,
      secrets: secrets.slice(0, MAX_LISTED_SECRETS).map((secret) => toPublicSecret(secret, nowMs)),
    },
  };
}

/** A key's credits config as answered: its own refill, and its `credits.low` level when it has one. */
function creditsView({ refill, lowAt }: NonNullable<ApiKey['credits']>): PublicKey['credits'] {
  const view = { refill: refill && { ...refill } };
  return lowAt === undefined ? view : { ...view, lowAt };
}

/** The permission fields of a key, as recorded in activity before/after snapshots. */
export function snapshotKey(key: ApiKey): Record<string, unknown> {
  return {
    name: key.name,
    environment: key.environment,
    scopes: [...key.scopes],
    expiresAt: key.expiresAt,
    ipAllowlist: [...key.ipAllowlist],
    rateLimit: { perMinute: key.rateLimit.perMinute },
    prefix: key.prefix,
    status: key.status,
  };
}

/** A secret as recorded in activity snapshots: ids and times only. */
export function snapshotSecret(secret: SecretRecord): Record<string, unknown> {
  return {
    id: secret.id,
    prefix: secret.prefix,
    closesAt: secret.closesAt,
    closedAt: secret.closedAt,
    closedReason: secret.closedReason,
  };
}

/** `{id, prefix, secret, …key}`: a new token beside the key it opens (shown once, at creation or rotation). */
export function withSecret(key: PublicKey, secret: string) {
  const { id, prefix, ...rest } = key;
  return { id, prefix, secret, ...rest };
}
