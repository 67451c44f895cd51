import type Database from 'better-sqlite3';
import type { ApiKey, SecretRecord } from '../../model/model.ts';

/** A secret row as the lookup statement returns it (snake_case columns). */
interface SecretRow {
  id: string;
  key_id: string;
  lookup: string;
  prefix: string;
  hash: string;
  tag: string | null;
  created_at: string;
  closes_at: string | null;
  closed_at: string | null;
  closed_reason: SecretRecord['closedReason'];
  call_count: number;
  last_call_at: string | null;
}

/** A key row as the key statement returns it. */
interface KeyRow {
  id: string;
  name: string;
  environment: ApiKey['environment'];
  scopes: string;
  expires_at: string | null;
  ip_allowlist: string;
  rate_limit_per_minute: number;
  prefix: string;
  status: ApiKey['status'];
  revoked_at: string | null;
  reminders_sent: string;
  created_at: string;
  updated_at: string;
  last_call_at: string | null;
  version: number;
  identity_id: string | null;
  plan_id: string | null;
  limits: string | null;
  quotas: string | null;
  credits: string | null;
}

const SECRET_SQL =
  'SELECT id, key_id, lookup, prefix, hash, tag, created_at, closes_at, closed_at, closed_reason, ' +
  'call_count, last_call_at FROM secrets WHERE lookup = ?';
const KEY_SQL =
  'SELECT id, name, environment, scopes, expires_at, ip_allowlist, rate_limit_per_minute, prefix, ' +
  'status, revoked_at, reminders_sent, created_at, updated_at, last_call_at, version, identity_id, plan_id, ' +
  'limits, quotas, credits FROM keys WHERE id = ?';

/**
 * `findByLookup` on better-sqlite3 statements prepared for the life of the store: every token that
 * passes its checksum reaches it, garbage included, and building the query through drizzle and
 * preparing a statement per lookup cost more than the rest of a refusal together. Two point reads
 * (the secret by its lookup, then its key), not one join: an unknown lookup, the common garbage,
 * costs the first alone, and SQLite runs the two several times faster than the join. The key is
 * read after its secret, so it is never older than the secret read (a revoke closes the secrets
 * and marks the key in one transaction: either read shows it).
 */
export function prepareFindByLookup(
  client: Database.Database,
): (lookup: string) => { key: ApiKey; secret: SecretRecord } | null {
  const secretStatement = client.prepare<[string], SecretRow>(SECRET_SQL);
  const keyStatement = client.prepare<[string], KeyRow>(KEY_SQL);
  return (lookup) => {
    const secret = secretStatement.get(lookup);
    if (!secret) return null;
    const key = keyStatement.get(secret.key_id);
    return key ? { key: keyOf(key), secret: secretOf(secret) } : null;
  };
}

function keyOf(row: KeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    environment: row.environment,
    scopes: JSON.parse(row.scopes) as string[],
    expiresAt: row.expires_at,
    ipAllowlist: JSON.parse(row.ip_allowlist) as string[],
    rateLimit: { perMinute: row.rate_limit_per_minute },
    prefix: row.prefix,
    status: row.status,
    revokedAt: row.revoked_at,
    remindersSent: JSON.parse(row.reminders_sent) as number[],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    lastCallAt: row.last_call_at,
    version: row.version,
    identityId: row.identity_id,
    planId: row.plan_id,
    limits: row.limits === null ? [] : JSON.parse(row.limits),
    quotas: row.quotas === null ? [] : JSON.parse(row.quotas),
    credits: row.credits === null ? null : JSON.parse(row.credits),
  };
}

function secretOf(row: SecretRow): SecretRecord {
  return {
    id: row.id,
    keyId: row.key_id,
    lookup: row.lookup,
    prefix: row.prefix,
    hash: row.hash,
    tag: row.tag,
    createdAt: row.created_at,
    closesAt: row.closes_at,
    closedAt: row.closed_at,
    closedReason: row.closed_reason,
    callCount: row.call_count,
    lastCallAt: row.last_call_at,
  };
}
