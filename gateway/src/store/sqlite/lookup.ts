import type Database from 'better-sqlite3';
import type { ApiKey, SecretRecord } from '../../model/model.ts';

/** A secret row joined with its key's, as the lookup statement returns it (snake_case columns). */
interface LookupRow {
  k_id: string;
  k_name: string;
  k_environment: ApiKey['environment'];
  k_scopes: string;
  k_expires_at: string | null;
  k_ip_allowlist: string;
  k_rate_limit_per_minute: number;
  k_prefix: string;
  k_status: ApiKey['status'];
  k_revoked_at: string | null;
  k_reminders_sent: string;
  k_created_at: string;
  k_updated_at: string;
  k_last_call_at: string | null;
  k_version: number;
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

const LOOKUP_SQL = `SELECT
  k.id AS k_id, k.name AS k_name, k.environment AS k_environment, k.scopes AS k_scopes,
  k.expires_at AS k_expires_at, k.ip_allowlist AS k_ip_allowlist,
  k.rate_limit_per_minute AS k_rate_limit_per_minute, k.prefix AS k_prefix, k.status AS k_status,
  k.revoked_at AS k_revoked_at, k.reminders_sent AS k_reminders_sent, k.created_at AS k_created_at,
  k.updated_at AS k_updated_at, k.last_call_at AS k_last_call_at, k.version AS k_version,
  s.id, s.key_id, s.lookup, s.prefix, s.hash, s.tag, s.created_at, s.closes_at, s.closed_at,
  s.closed_reason, s.call_count, s.last_call_at
FROM secrets s INNER JOIN keys k ON k.id = s.key_id WHERE s.lookup = ?`;

/**
 * `findByLookup` on one better-sqlite3 statement prepared for the life of the store: every token
 * that passes its checksum reaches it, garbage included, and building the query through drizzle
 * and preparing a statement per lookup cost more than the rest of a refusal together.
 */
export function prepareFindByLookup(
  client: Database.Database,
): (lookup: string) => { key: ApiKey; secret: SecretRecord } | null {
  const statement = client.prepare<[string], LookupRow>(LOOKUP_SQL);
  return (lookup) => {
    const row = statement.get(lookup);
    return row ? { key: keyOf(row), secret: secretOf(row) } : null;
  };
}

function keyOf(row: LookupRow): ApiKey {
  return {
    id: row.k_id,
    name: row.k_name,
    environment: row.k_environment,
    scopes: JSON.parse(row.k_scopes) as string[],
    expiresAt: row.k_expires_at,
    ipAllowlist: JSON.parse(row.k_ip_allowlist) as string[],
    rateLimit: { perMinute: row.k_rate_limit_per_minute },
    prefix: row.k_prefix,
    status: row.k_status,
    revokedAt: row.k_revoked_at,
    remindersSent: JSON.parse(row.k_reminders_sent) as number[],
    createdAt: row.k_created_at,
    updatedAt: row.k_updated_at,
    lastCallAt: row.k_last_call_at,
    version: row.k_version,
  };
}

function secretOf(row: LookupRow): SecretRecord {
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
