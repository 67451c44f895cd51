import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import type { CreditsConfig, PlanLimit, PlanQuota } from '../../model/budget.ts';
import type { LoggedBodies } from '../../model/model.ts';

/**
 * The SQLite schema of the key store. Timestamps are ISO-8601 UTC strings (`toISOString()`),
 * which sort as text; usage minutes are epoch milliseconds. Migrations in `gateway/drizzle` are
 * generated from this file with `npx drizzle-kit generate` (from `gateway/`).
 */
export const keys = sqliteTable(
  'keys',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    environment: text('environment', { enum: ['live', 'test'] }).notNull(),
    scopes: text('scopes', { mode: 'json' }).$type<string[]>().notNull(),
    expiresAt: text('expires_at'),
    ipAllowlist: text('ip_allowlist', { mode: 'json' }).$type<string[]>().notNull(),
    rateLimitPerMinute: integer('rate_limit_per_minute').notNull(),
    prefix: text('prefix').notNull(),
    status: text('status', { enum: ['active', 'revoked'] }).notNull(),
    revokedAt: text('revoked_at'),
    remindersSent: text('reminders_sent', { mode: 'json' }).$type<number[]>().notNull(),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
    lastCallAt: text('last_call_at'),
    version: integer('version').notNull(),
    /** Budget fields (plans.ts); null on keys stored before plans existed (no identity, no plan, none). */
    identityId: text('identity_id'),
    planId: text('plan_id'),
    limits: text('limits', { mode: 'json' }).$type<PlanLimit[]>(),
    quotas: text('quotas', { mode: 'json' }).$type<PlanQuota[]>(),
    credits: text('credits', { mode: 'json' }).$type<CreditsConfig>(),
  },
  (t) => [
    index('keys_environment_status_idx').on(t.environment, t.status, t.createdAt),
    index('keys_status_expires_idx').on(t.status, t.expiresAt),
    // Partial: "keys of identity X" and "is plan X in use" read only keys that name one.
    index('keys_identity_idx').on(t.identityId).where(sql`${t.identityId} IS NOT NULL`),
    index('keys_plan_idx').on(t.planId).where(sql`${t.planId} IS NOT NULL`),
  ],
);

/** Plans: named limits, quotas and a credits refill that keys and identities name. */
export const plans = sqliteTable(
  'plans',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    limits: text('limits', { mode: 'json' }).$type<PlanLimit[]>().notNull(),
    quotas: text('quotas', { mode: 'json' }).$type<PlanQuota[]>().notNull(),
    credits: text('credits', { mode: 'json' }).$type<CreditsConfig>(),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
    version: integer('version').notNull(),
  },
  (t) => [index('plans_created_idx').on(t.createdAt, t.id)],
);

/** Identities: an integrator's customer, unique by external id per environment. */
export const identities = sqliteTable(
  'identities',
  {
    id: text('id').primaryKey(),
    externalId: text('external_id').notNull(),
    environment: text('environment', { enum: ['live', 'test'] }).notNull(),
    planId: text('plan_id'),
    meta: text('meta', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    limits: text('limits', { mode: 'json' }).$type<PlanLimit[]>().notNull(),
    quotas: text('quotas', { mode: 'json' }).$type<PlanQuota[]>().notNull(),
    credits: text('credits', { mode: 'json' }).$type<CreditsConfig>(),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
    version: integer('version').notNull(),
  },
  (t) => [
    uniqueIndex('identities_environment_external_idx').on(t.environment, t.externalId),
    index('identities_environment_created_idx').on(t.environment, t.createdAt, t.id),
    index('identities_created_idx').on(t.createdAt, t.id),
    index('identities_plan_idx').on(t.planId).where(sql`${t.planId} IS NOT NULL`),
  ],
);

/** The credit balance of a key or an identity (`subject`: `key_…` or `idt_…`); the budget engine spends it. */
export const creditBalances = sqliteTable('credit_balances', {
  subject: text('subject').primaryKey(),
  remaining: integer('remaining').notNull(),
  /** Epoch ms of the last refill (or of the balance's creation). */
  refilledAt: integer('refilled_at').notNull(),
});

/**
 * A credits operation already applied, by the id of the request that asked for it (the caller's key,
 * its Idempotency-Key and the request's fingerprint): a retry of that request after a crash answers
 * the balance it left instead of changing it again. Kept as long as an Idempotency-Key record.
 */
export const creditOperations = sqliteTable(
  'credit_operations',
  {
    id: text('id').primaryKey(),
    remaining: integer('remaining').notNull(),
    refilledAt: integer('refilled_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [index('credit_operations_expiry_idx').on(t.expiresAt)],
);

/** What a subject used of one limit or quota (`name`) in the window starting at `window_start` (epoch ms). */
export const budgetCounters = sqliteTable(
  'budget_counters',
  {
    subject: text('subject').notNull(),
    name: text('name').notNull(),
    windowStart: integer('window_start').notNull(),
    used: integer('used').notNull(),
  },
  (t) => [primaryKey({ columns: [t.subject, t.name, t.windowStart] })],
);

/** Calls and spent cost per subject, UTC day (`YYYY-MM-DD`) and outcome, for usage and billing exports. */
export const budgetUsage = sqliteTable(
  'budget_usage',
  {
    subject: text('subject').notNull(),
    day: text('day').notNull(),
    outcome: text('outcome').notNull(),
    calls: integer('calls').notNull(),
    cost: integer('cost').notNull(),
  },
  (t) => [primaryKey({ columns: [t.subject, t.day, t.outcome] })],
);

/**
 * Calls and spent cost per subject (a key or an identity), bucket and outcome, for analytics: a
 * bucket is a `minute`, `hour` or `day` (`start` in epoch ms); pruned by age per granularity.
 */
export const callBuckets = sqliteTable(
  'call_buckets',
  {
    subject: text('subject').notNull(),
    granularity: text('granularity', { enum: ['minute', 'hour', 'day'] }).notNull(),
    start: integer('start').notNull(),
    environment: text('environment').notNull(),
    outcome: text('outcome').notNull(),
    calls: integer('calls').notNull(),
    cost: integer('cost').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.subject, t.granularity, t.start, t.environment, t.outcome] }),
    index('call_buckets_age_idx').on(t.granularity, t.start),
  ],
);

export const secrets = sqliteTable(
  'secrets',
  {
    id: text('id').primaryKey(),
    keyId: text('key_id')
      .notNull()
      .references(() => keys.id),
    lookup: text('lookup').notNull(),
    prefix: text('prefix').notNull(),
    hash: text('hash').notNull(),
    tag: text('tag'),
    createdAt: text('created_at').notNull(),
    closesAt: text('closes_at'),
    closedAt: text('closed_at'),
    closedReason: text('closed_reason', { enum: ['manual', 'overlap_ended', 'revoked'] }),
    callCount: integer('call_count').notNull().default(0),
    lastCallAt: text('last_call_at'),
  },
  (t) => [
    uniqueIndex('secrets_lookup_idx').on(t.lookup),
    index('secrets_key_idx').on(t.keyId, t.createdAt),
    // Partial: only secrets with a pending overlap end, so the sweep's due query reads a handful of rows.
    index('secrets_open_closes_idx')
      .on(t.closesAt)
      .where(sql`${t.closedAt} IS NULL AND ${t.closesAt} IS NOT NULL`),
  ],
);

/** Append-only: rows are inserted, never updated or deleted. */
export const activity = sqliteTable(
  'activity',
  {
    id: text('id').primaryKey(),
    // Null for an entry about no key (a sandbox reset).
    keyId: text('key_id').references(() => keys.id),
    environment: text('environment', { enum: ['live', 'test'] }).notNull(),
    action: text('action').notNull(),
    actorType: text('actor_type', { enum: ['key', 'admin', 'system'] }).notNull(),
    actorId: text('actor_id').notNull(),
    at: text('at').notNull(),
    sourceIp: text('source_ip'),
    before: text('before', { mode: 'json' }).$type<Record<string, unknown> | null>(),
    after: text('after', { mode: 'json' }).$type<Record<string, unknown> | null>(),
    details: text('details', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
  },
  (t) => [
    index('activity_key_at_idx').on(t.keyId, t.at, t.id),
    index('activity_environment_at_idx').on(t.environment, t.at, t.id),
    index('activity_at_idx').on(t.at, t.id),
  ],
);

/** Per-minute usage of one secret; the latency histogram is a JSON array aligned with LATENCY_BUCKETS_MS. */
export const usageBuckets = sqliteTable(
  'usage_buckets',
  {
    keyId: text('key_id').notNull(),
    secretId: text('secret_id').notNull(),
    minute: integer('minute').notNull(),
    calls: integer('calls').notNull(),
    errors4xx: integer('errors_4xx').notNull(),
    errors5xx: integer('errors_5xx').notNull(),
    latencyMsSum: real('latency_ms_sum').notNull(),
    latencyHistogram: text('latency_histogram', { mode: 'json' }).$type<number[]>().notNull(),
    lastCallAt: text('last_call_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.keyId, t.secretId, t.minute] }),
    index('usage_buckets_key_minute_idx').on(t.keyId, t.minute),
  ],
);

export const apiLogs = sqliteTable(
  'api_logs',
  {
    id: text('id').primaryKey(),
    keyId: text('key_id').notNull(),
    secretId: text('secret_id').notNull(),
    at: text('at').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    status: integer('status').notNull(),
    latencyMs: real('latency_ms').notNull(),
    clientIp: text('client_ip').notNull(),
    /** The call's W3C trace id when it was traced, else null. */
    traceId: text('trace_id'),
    /** Test keys only: the request and response bodies as kept (JSON of `LoggedBodies`), else null. */
    bodies: text('bodies', { mode: 'json' }).$type<LoggedBodies>(),
  },
  (t) => [index('api_logs_key_at_idx').on(t.keyId, t.at, t.id), index('api_logs_at_idx').on(t.at)],
);

/** `email_normalized` (lower-cased email) carries the case-insensitive uniqueness. */
export const adminUsers = sqliteTable(
  'admin_users',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    emailNormalized: text('email_normalized').notNull(),
    passwordHash: text('password_hash').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [uniqueIndex('admin_users_email_normalized_idx').on(t.emailNormalized)],
);

/** Admin sessions under the SHA-256 of their cookie token; times in epoch ms. */
export const adminSessions = sqliteTable(
  'admin_sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: text('user_id').notNull(),
    email: text('email').notNull(),
    csrfToken: text('csrf_token').notNull(),
    createdAt: integer('created_at').notNull(),
    lastSeenAt: integer('last_seen_at').notNull(),
    idleExpiresAt: integer('idle_expires_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [index('admin_sessions_idle_expires_idx').on(t.idleExpiresAt)],
);

/** Failed logins per subject (`email:…` / `ip:…`) in a fixed window ending at `window_ends_at` (epoch ms). */
export const adminLoginFailures = sqliteTable('admin_login_failures', {
  subject: text('subject').primaryKey(),
  count: integer('count').notNull(),
  windowEndsAt: integer('window_ends_at').notNull(),
});

/**
 * One row per counter. `key_generation` moves in the transaction of every key change, so a gateway
 * sharing the file with the CLI drops its cached key states only when some key really changed (not
 * on every commit of another connection, e.g. the API-log writer's).
 */
export const storeCounters = sqliteTable('store_counters', {
  name: text('name').primaryKey(),
  value: integer('value').notNull(),
});

/**
 * Idempotency-Key records of the key-management API, per (API key id, SHA-256 of the idempotency
 * key): `record` is the shared JSON shape (@keygate/contracts/idempotency); `expires_at` (epoch ms)
 * is copied out for pruning.
 */
export const idempotencyRecords = sqliteTable(
  'idempotency_records',
  {
    keyId: text('key_id').notNull(),
    keyHash: text('key_hash').notNull(),
    record: text('record').notNull(),
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.keyId, t.keyHash] }),
    index('idempotency_records_expires_at_idx').on(t.expiresAt),
  ],
);

/** Alert endpoints (model/alert-store.ts): where the gateway's signed webhooks go. */
export const alertEndpoints = sqliteTable('alert_endpoints', {
  id: text('id').primaryKey(),
  url: text('url').notNull(),
  description: text('description').notNull(),
  /** Subscribed event types; null = every type. */
  eventTypes: text('event_types', { mode: 'json' }).$type<string[]>(),
  /** Only events about these identities; null = every event. */
  identityIds: text('identity_ids', { mode: 'json' }).$type<string[]>(),
  enabled: integer('enabled', { mode: 'boolean' }).notNull(),
  disabledReason: text('disabled_reason'),
  secret: text('secret').notNull(),
  previousSecret: text('previous_secret'),
  previousSecretExpiresAt: text('previous_secret_expires_at'),
  failingSince: text('failing_since'),
  createdByKeyId: text('created_by_key_id').notNull(),
  createdAt: text('created_at').notNull(),
  updatedAt: text('updated_at').notNull(),
});

/** Alert events: the dedupe key makes one event of a crossing seen by several instances. */
export const alertEvents = sqliteTable('alert_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  dedupeKey: text('dedupe_key').notNull().unique(),
  identityId: text('identity_id'),
  body: text('body').notNull(),
  createdAt: text('created_at').notNull(),
});

/** One delivery of an event to an endpoint; `lease_until` (ms) fences a claimed one across instances. */
export const alertDeliveries = sqliteTable(
  'alert_deliveries',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    id: text('id').notNull().unique(),
    eventId: text('event_id').notNull(),
    endpointId: text('endpoint_id').notNull(),
    eventType: text('event_type').notNull(),
    status: text('status').notNull(),
    nextAttemptAt: integer('next_attempt_at'),
    leaseUntil: integer('lease_until'),
    leaseToken: text('lease_token'),
    scheduleStep: integer('schedule_step').notNull(),
    attemptCount: integer('attempt_count').notNull(),
    attempts: text('attempts').notNull(),
    createdAt: text('created_at').notNull(),
    completedAt: text('completed_at'),
  },
  (t) => [
    index('alert_deliveries_due_idx').on(t.status, t.nextAttemptAt),
    index('alert_deliveries_endpoint_idx').on(t.endpointId, t.seq),
  ],
);
