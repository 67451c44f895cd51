import type {
  ActivityEntry,
  AdminUser,
  ApiKey,
  ApiLogEntry,
  SecretRecord,
  UsageBucket,
} from '../../model/model.ts';
import type { activity, adminUsers, apiLogs, keys, secrets, usageBuckets } from './schema.ts';

type KeyRow = typeof keys.$inferSelect;
type SecretRow = typeof secrets.$inferSelect;
type ActivityRow = typeof activity.$inferSelect;
type UsageRow = typeof usageBuckets.$inferSelect;
type AdminRow = typeof adminUsers.$inferSelect;
type LogRow = typeof apiLogs.$inferSelect;

/** Key row → model. */
export function keyFromRow(row: KeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    environment: row.environment,
    scopes: row.scopes,
    expiresAt: row.expiresAt,
    ipAllowlist: row.ipAllowlist,
    rateLimit: { perMinute: row.rateLimitPerMinute },
    prefix: row.prefix,
    status: row.status,
    revokedAt: row.revokedAt,
    remindersSent: row.remindersSent,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    lastCallAt: row.lastCallAt,
    version: row.version,
    identityId: row.identityId,
    planId: row.planId,
    limits: row.limits ?? [],
    quotas: row.quotas ?? [],
    credits: row.credits,
  };
}

/** Key model → the columns a change writes (never `last_call_at`, which only usage advances). */
export function keyToRow(key: ApiKey): Omit<KeyRow, 'lastCallAt'> {
  return {
    id: key.id,
    name: key.name,
    environment: key.environment,
    scopes: key.scopes,
    expiresAt: key.expiresAt,
    ipAllowlist: key.ipAllowlist,
    rateLimitPerMinute: key.rateLimit.perMinute,
    prefix: key.prefix,
    status: key.status,
    revokedAt: key.revokedAt,
    remindersSent: key.remindersSent,
    createdAt: key.createdAt,
    updatedAt: key.updatedAt,
    version: key.version,
    identityId: key.identityId ?? null,
    planId: key.planId ?? null,
    limits: key.limits?.length ? key.limits : null,
    quotas: key.quotas?.length ? key.quotas : null,
    credits: key.credits ?? null,
  };
}

/** Secret row → model. */
export function secretFromRow(row: SecretRow): SecretRecord {
  return { ...row };
}

/** Activity row → model. */
export function activityFromRow(row: ActivityRow): ActivityEntry {
  const { actorType, actorId, ...rest } = row;
  return {
    ...rest,
    action: rest.action as ActivityEntry['action'],
    actor: { type: actorType, id: actorId } as ActivityEntry['actor'],
  };
}

/** Activity model → row. */
export function activityToRow(entry: ActivityEntry): ActivityRow {
  const { actor, ...rest } = entry;
  return { ...rest, actorType: actor.type, actorId: actor.id };
}

/** Usage row → model. */
export function usageFromRow(row: UsageRow): UsageBucket {
  return { ...row };
}

/** Element-wise sum of two histograms of possibly different lengths. */
export function addHistograms(a: readonly number[], b: readonly number[]): number[] {
  const out = new Array<number>(Math.max(a.length, b.length)).fill(0);
  for (let i = 0; i < out.length; i++) out[i] = (a[i] ?? 0) + (b[i] ?? 0);
  return out;
}

/** Admin row → model. */
export function adminFromRow(row: AdminRow): AdminUser {
  return { id: row.id, email: row.email, passwordHash: row.passwordHash, createdAt: row.createdAt };
}

/** API log row → model: the same shape, `bodies` left out when there are none. */
export function logFromRow(row: LogRow): ApiLogEntry {
  const { bodies, traceId, ...rest } = row;
  const entry: ApiLogEntry = traceId === null ? rest : { ...rest, traceId };
  return bodies === null ? entry : { ...entry, bodies };
}
