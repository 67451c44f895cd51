import { sql } from 'drizzle-orm';
import { check, index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * Webhook endpoints of this environment (each environment has its own database). The signing
 * secrets are kept as given (`whsec_…`): signing needs the key itself, so they cannot be hashed.
 * During a rotation `previous_secret` signs too, until `previous_secret_expires_at`.
 */
export const webhookEndpoints = sqliteTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    /** JSON array of event types, or NULL for every event type. */
    eventTypes: text('event_types'),
    enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
    /** Why a disabled endpoint is disabled: by hand, 410 Gone from the receiver, or failing too long. */
    disabledReason: text('disabled_reason'),
    secret: text('secret').notNull(),
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: text('previous_secret_expires_at'),
    /** Start of the current run of failed attempts (NULL after any success). */
    failingSince: text('failing_since'),
    createdByKeyId: text('created_by_key_id').notNull(),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    check(
      'webhook_endpoints_disabled_reason',
      sql`(${t.enabled} = 1 AND ${t.disabledReason} IS NULL) OR (${t.enabled} = 0 AND ${t.disabledReason} IN ('manual', 'gone', 'failing'))`,
    ),
    check(
      'webhook_endpoints_previous_secret',
      sql`(${t.previousSecret} IS NULL) = (${t.previousSecretExpiresAt} IS NULL)`,
    ),
  ],
);

/** The transactional outbox: every event, written in the transaction of the change it describes. */
export const webhookEvents = sqliteTable(
  'webhook_events',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    /** The exact JSON body every delivery of this event sends (the envelope). */
    body: text('body').notNull(),
    createdAt: text('created_at').notNull(),
    /** The W3C `traceparent` of the request that wrote the event (tracing on): its deliveries link to it. */
    traceparent: text('traceparent'),
  },
  (t) => [index('webhook_events_created_idx').on(t.createdAt)],
);

/**
 * One event for one endpoint, fanned out with the event. `id` (`msg_…`) is the `webhook-id`
 * header, the same on every attempt and resend. `seq` orders an endpoint's deliveries.
 */
export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    id: text('id').notNull().unique(),
    eventId: text('event_id')
      .notNull()
      .references(() => webhookEvents.id, { onDelete: 'cascade' }),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    status: text('status').notNull(),
    /** Due time of the next attempt while pending. */
    nextAttemptAt: text('next_attempt_at'),
    /** Index into the retry schedule of the next attempt (a resend starts again at 0). */
    scheduleStep: integer('schedule_step').notNull().default(0),
    attemptCount: integer('attempt_count').notNull().default(0),
    createdAt: text('created_at').notNull(),
    completedAt: text('completed_at'),
  },
  (t) => [
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.seq),
    // Retention deletes events; their deliveries go by this index instead of a scan per event.
    index('webhook_deliveries_event_idx').on(t.eventId),
    index('webhook_deliveries_queue_idx')
      .on(t.endpointId, t.seq)
      .where(sql`${t.status} IN ('pending', 'delivering')`),
    check('webhook_deliveries_status', sql`${t.status} IN ('pending', 'delivering', 'succeeded', 'failed')`),
  ],
);

/** Every delivery attempt; a row is written when the attempt starts and completed when it ends. */
export const webhookAttempts = sqliteTable(
  'webhook_attempts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    deliveryId: text('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    startedAt: text('started_at').notNull(),
    finishedAt: text('finished_at'),
    /** The `webhook-timestamp` header of this attempt (Unix seconds). */
    webhookTimestamp: integer('webhook_timestamp').notNull(),
    statusCode: integer('status_code'),
    durationMs: integer('duration_ms'),
    /** At most 1 KiB of the response body. */
    response: text('response'),
    responseTruncated: integer('response_truncated', { mode: 'boolean' }).notNull().default(false),
    error: text('error'),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.id)],
);
