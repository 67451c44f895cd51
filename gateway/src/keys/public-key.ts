import type { ExpiryReminder } from './lifecycle.ts';
import { expiryReminder, isKeyExpired, isSecretUsable, openOldSecrets } from './lifecycle.ts';
import type { ApiKey, SecretRecord } from './model.ts';

/** Lead time (days) behind the `expiryReminder` of the public view unless the caller says otherwise. */
export const DEFAULT_VIEW_REMINDER_DAYS = 7;
/** The public view lists at most this many secrets, newest first. */
export const MAX_LISTED_SECRETS = 10;

/** One secret as listed: never its hash or token. */
export interface PublicSecret
  extends Pick<
    SecretRecord,
    'id' | 'prefix' | 'createdAt' | 'closesAt' | 'closedAt' | 'closedReason' | 'callCount' | 'lastCallAt'
  > {
  /** True while the secret authenticates. */
  usable: boolean;
}

/** A key as the API, the CLI and the admin interface show it: the stored fields but `remindersSent`, plus derived state. */
export interface PublicKey extends Omit<ApiKey, 'remindersSent'> {
  /** True once the last valid day is over (the key no longer authenticates). */
  expired: boolean;
  /** Set while the key is within the reminder lead time of its expiry. */
  expiryReminder: ExpiryReminder | null;
  rotation: {
    /** True while an older secret still authenticates beside the current one. */
    inProgress: boolean;
    /** Secrets newest first (at most 10), with call counts and last-call times per secret. */
    secrets: PublicSecret[];
  };
}

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
    rotation: {
      inProgress: key.status === 'active' && openOldSecrets(key, secrets, nowMs).length > 0,
      secrets: secrets.slice(0, MAX_LISTED_SECRETS).map((secret) => toPublicSecret(secret, nowMs)),
    },
  };
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
