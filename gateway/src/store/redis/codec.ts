import { expiryEndMs } from '../../model/lifecycle.ts';
import type { ApiKey, SecretRecord, UsageBucket } from '../../model/model.ts';

/** Hash fields read for a key, in this order. */
export const KEY_FIELDS = ['data', 'version', 'lastCallAt'] as const;
/** Hash fields read for a secret, in this order. */
export const SECRET_FIELDS = ['data', 'closing', 'callCount', 'lastCallAt', 'tag'] as const;

type Reply = string | null;

/** The JSON a change writes for a key: everything but `version` and `lastCallAt`, which have fields of their own. */
export function encodeKeyData(key: ApiKey): string {
  const { version: _version, lastCallAt: _lastCallAt, ...data } = key;
  return JSON.stringify(data);
}

/** `[data, version, lastCallAt]` → key, or null when the hash does not exist. */
export function decodeKey(fields: readonly Reply[]): ApiKey | null {
  const [data, version, lastCallAt] = fields;
  if (!data) return null;
  const rest = JSON.parse(data) as Omit<ApiKey, 'version' | 'lastCallAt'>;
  // Keys stored before plans existed carry no budget fields: none of them.
  return {
    identityId: null,
    planId: null,
    limits: [],
    quotas: [],
    credits: null,
    ...rest,
    version: Number(version),
    lastCallAt: lastCallAt || null,
  };
}

/** The immutable part of a secret, written once when it is inserted. */
export function encodeSecretData(secret: SecretRecord): string {
  const { id, keyId, lookup, prefix, hash, tag, createdAt } = secret;
  return JSON.stringify({ id, keyId, lookup, prefix, hash, tag: tag ?? null, createdAt });
}

/** The closing fields of a secret, rewritten by every change that carries the secret. */
export function encodeSecretClosing(secret: SecretRecord): string {
  const { closesAt, closedAt, closedReason } = secret;
  return JSON.stringify({ closesAt, closedAt, closedReason });
}

/**
 * `[data, closing, callCount, lastCallAt, tag]` → secret, or null when the hash does not exist. The
 * tag is in `data` for secrets written with one, and in the `tag` field when it was set later
 * (secrets stored before tags existed); the field wins.
 */
export function decodeSecret(fields: readonly Reply[]): SecretRecord | null {
  const [data, closing, callCount, lastCallAt, tag] = fields;
  if (!data || !closing) return null;
  const immutable = JSON.parse(data) as Pick<
    SecretRecord,
    'id' | 'keyId' | 'lookup' | 'prefix' | 'hash' | 'tag' | 'createdAt'
  >;
  return {
    ...immutable,
    tag: tag || immutable.tag || null,
    ...(JSON.parse(closing) as Pick<SecretRecord, 'closesAt' | 'closedAt' | 'closedReason'>),
    callCount: Number(callCount ?? 0),
    lastCallAt: lastCallAt || null,
  };
}

/** The `sweep:expiry` score of a key: its expiry end (ms) while it is active and expires, else null (not indexed). */
export function expiryScore(key: Pick<ApiKey, 'status' | 'expiresAt'>): number | null {
  return key.status === 'active' && key.expiresAt !== null ? expiryEndMs(key.expiresAt) : null;
}

/** The `sweep:closing` score of a secret: its overlap end (ms) while it is open and has one, else null (not indexed). */
export function closingScore(secret: Pick<SecretRecord, 'closesAt' | 'closedAt'>): number | null {
  return secret.closedAt === null && secret.closesAt !== null ? Date.parse(secret.closesAt) : null;
}

/** The `sweep:closing` member of a secret: `<keyId> <secretId>` (ids hold no spaces). */
export function closingMember(secret: Pick<SecretRecord, 'keyId' | 'id'>): string {
  return `${secret.keyId} ${secret.id}`;
}

/** The histogram as the comma-separated counts the usage script reads. */
export function encodeHistogram(histogram: readonly number[]): string {
  return histogram.map((count) => String(count)).join(',');
}

/** A usage bucket hash (HGETALL) → bucket, or null when it expired. */
export function decodeUsage(
  keyId: string,
  secretId: string,
  minute: number,
  hash: Record<string, string>,
): UsageBucket | null {
  if (hash.calls === undefined || hash.lastCallAt === undefined) return null;
  const slots = Number(hash.slots ?? 0);
  const latencyHistogram = Array.from({ length: slots }, (_, i) => Number(hash[`h${i}`] ?? 0));
  return {
    keyId,
    secretId,
    minute,
    calls: Number(hash.calls),
    errors4xx: Number(hash.errors4xx ?? 0),
    errors5xx: Number(hash.errors5xx ?? 0),
    latencyMsSum: Number(hash.latencyMsSum ?? 0),
    latencyHistogram,
    lastCallAt: hash.lastCallAt,
  };
}
