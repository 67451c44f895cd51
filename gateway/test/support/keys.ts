import type { SecretHasher } from '../../src/keys/hasher.ts';
import { generateToken, newId } from '../../src/keys/token.ts';
import type { ApiKey, Environment, SecretRecord } from '../../src/model/model.ts';
import type { MemoryStore } from './memory-store.ts';

export interface SeedOptions {
  environment?: Environment;
  scopes?: string[];
  expiresAt?: string | null;
  ipAllowlist?: string[];
  perMinute?: number;
  status?: ApiKey['status'];
}

export interface SeededKey {
  key: ApiKey;
  secret: SecretRecord;
  token: string;
}

const NOW_ISO = '2026-01-15T12:00:00.000Z';

/** A secret of `key` with a fresh token, stored through `hasher`. */
export async function addSecret(
  store: MemoryStore,
  hasher: SecretHasher,
  key: ApiKey,
  fields: Partial<SecretRecord> = {},
): Promise<{ secret: SecretRecord; token: string }> {
  const { token, lookup, prefix } = generateToken(key.environment);
  const secret: SecretRecord = {
    id: newId('sec'),
    keyId: key.id,
    lookup,
    prefix,
    hash: await hasher.hash(token),
    tag: hasher.tag?.(token) ?? null,
    createdAt: NOW_ISO,
    closesAt: null,
    closedAt: null,
    closedReason: null,
    callCount: 0,
    lastCallAt: null,
    ...fields,
  };
  store.secrets.set(secret.id, secret);
  return { secret, token };
}

/** Puts a key with one secret straight into the memory store and returns its token. */
export async function seedKey(
  store: MemoryStore,
  hasher: SecretHasher,
  options: SeedOptions = {},
): Promise<SeededKey> {
  const key: ApiKey = {
    id: newId('key'),
    name: 'test key',
    environment: options.environment ?? 'live',
    scopes: options.scopes ?? ['article:r', 'order:rw'],
    expiresAt: options.expiresAt ?? null,
    ipAllowlist: options.ipAllowlist ?? [],
    rateLimit: { perMinute: options.perMinute ?? 1000 },
    prefix: '',
    status: options.status ?? 'active',
    revokedAt: options.status === 'revoked' ? NOW_ISO : null,
    remindersSent: [],
    createdAt: NOW_ISO,
    updatedAt: NOW_ISO,
    lastCallAt: null,
    version: 1,
  };
  store.keys.set(key.id, key);
  const { secret, token } = await addSecret(store, hasher, key);
  key.prefix = secret.prefix;
  return { key, secret, token };
}

/** Changes a stored key in place (as another process would) and returns it. */
export function updateKey(store: MemoryStore, keyId: string, fields: Partial<ApiKey>): ApiKey {
  const key = store.keys.get(keyId);
  if (!key) throw new Error(`no key ${keyId}`);
  Object.assign(key, fields, { version: key.version + 1 });
  return key;
}

/** Changes a stored secret in place. */
export function updateSecret(
  store: MemoryStore,
  secretId: string,
  fields: Partial<SecretRecord>,
): SecretRecord {
  const secret = store.secrets.get(secretId);
  if (!secret) throw new Error(`no secret ${secretId}`);
  Object.assign(secret, fields);
  return secret;
}
