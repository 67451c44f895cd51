import { ALERT_EVENT_TYPES, ALERT_TEST_EVENT_TYPE, type AlertEventType } from '@keygate/contracts/gateway';
import { z } from 'zod';
import { responseComponent } from '../registries.ts';
import { NextCursorSchema, timestamp } from './common.ts';

/** An alert event type an endpoint can subscribe to. */
export const AlertEventTypeSchema = responseComponent('AlertEventType', z.enum(ALERT_EVENT_TYPES));

/** An alert endpoint (`aep_…`). */
export const AlertEndpointSchema = responseComponent(
  'AlertEndpoint',
  z.object({
    id: z.string(),
    url: z.string().meta({ format: 'uri' }),
    description: z.string(),
    eventTypes: z
      .array(AlertEventTypeSchema)
      .nullable()
      .meta({ description: 'Subscribed types; null takes every type.' }),
    identityIds: z
      .array(z.string())
      .nullable()
      .meta({ description: 'Only events about these identities; null takes every event.' }),
    enabled: z.boolean(),
    disabledReason: z
      .enum(['gone', 'failing', 'manual'])
      .nullable()
      .meta({ description: 'Why it is disabled: after a 410, after failing 5 days, or by hand.' }),
    previousSecretExpiresAt: timestamp().nullable().meta({
      description:
        'While a rotated secret overlaps (deliveries carry both signatures): when the old one stops; else null.',
    }),
    failingSince: timestamp().nullable(),
    createdAt: timestamp(),
    updatedAt: timestamp(),
  }),
);

/** An alert endpoint just created or with a rotated secret, with the signing secret: shown this once. */
export const AlertEndpointWithSecretSchema = responseComponent(
  'AlertEndpointWithSecret',
  AlertEndpointSchema.extend({
    secret: z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/=]+$/)
      .meta({ description: 'The signing secret (`whsec_` + base64), shown only here.' }),
  }),
);

/** `GET /v2/auth/alert-endpoints`: every alert endpoint. */
export const AlertEndpointListSchema = responseComponent(
  'AlertEndpointList',
  z.object({ data: z.array(AlertEndpointSchema) }),
);

const AlertAttemptSchema = responseComponent(
  'AlertAttempt',
  z.object({
    startedAt: timestamp(),
    webhookTimestamp: z.number().int().meta({ description: 'The `webhook-timestamp` sent (Unix seconds).' }),
    statusCode: z.number().int().nullable(),
    durationMs: z.number().nullable(),
    response: z.string().nullable().meta({ description: 'At most 1 KiB of the response body.' }),
    error: z.string().nullable(),
  }),
);

/** One delivery of an alert to an endpoint, with its latest attempts. */
export const AlertDeliverySchema = responseComponent(
  'AlertDelivery',
  z.object({
    id: z.string().meta({ description: 'The `webhook-id` of every attempt of this delivery.' }),
    eventId: z.string(),
    eventType: z.string(),
    endpointId: z.string(),
    status: z.enum(['pending', 'delivering', 'failed', 'succeeded']),
    nextAttemptAt: timestamp().nullable(),
    attemptCount: z.number().int(),
    createdAt: timestamp(),
    completedAt: timestamp().nullable(),
    attempts: z
      .array(AlertAttemptSchema)
      .meta({ description: 'The latest attempts (at most 10), newest first.' }),
  }),
);

/** `GET /v2/auth/alert-endpoints/{id}/deliveries`: a page of deliveries, newest first. */
export const AlertDeliveryPageSchema = responseComponent(
  'AlertDeliveryPage',
  z.object({ data: z.array(AlertDeliverySchema), nextCursor: NextCursorSchema }),
);

/** `GET /v2/auth/alert-events:stream`: server-sent events, each `id: <position>`, `event: <type>`, `data: <envelope>`. */
export const AlertStreamSchema = responseComponent(
  'AlertStream',
  z.string().meta({
    description:
      'A text/event-stream: per alert `id: <position>`, `event: <type>` and `data: <the envelope every delivery sends>` (its `id` is the event id), then a blank line; comment lines (`: keep-alive`) keep it open.',
  }),
);

const KeyChangeData = responseComponent(
  'AlertKeyChangeData',
  z.object({
    keyId: z.string(),
    keyName: z.string(),
    identityId: z.string().nullable(),
    activityId: z
      .string()
      .meta({ description: 'The activity entry of the change (`GET /v2/auth/keys/{id}/activity`).' }),
    actor: z.object({ type: z.enum(['key', 'admin', 'system']), id: z.string() }),
    at: timestamp(),
    before: z.record(z.string(), z.unknown()).nullable(),
    after: z.record(z.string(), z.unknown()).nullable(),
    details: z.record(z.string(), z.unknown()),
  }),
);

const subject = z.object({ type: z.enum(['key', 'identity']), id: z.string() });
const ofKey = { keyId: z.string(), identityId: z.string().nullable() };

/** `data` of each alert type. */
const ALERT_DATA: Record<AlertEventType, z.ZodType> = {
  'key.created': KeyChangeData,
  'key.rotated': KeyChangeData,
  'key.secret_closed': KeyChangeData,
  'key.revoked': KeyChangeData,
  'key.scopes_changed': KeyChangeData,
  'key.expiring': z.object({
    ...ofKey,
    keyName: z.string(),
    expiresAt: z.string().meta({ description: 'The last valid day (YYYY-MM-DD, UTC).' }),
    daysLeft: z.number().int(),
    leadDays: z.number().int().meta({ description: 'The reminder lead time entered (7 or 1 by default).' }),
  }),
  'key.expired': z.object({ ...ofKey, keyName: z.string(), expiresAt: z.string() }),
  'quota.threshold': z.object({
    ...ofKey,
    subject,
    period: z.enum(['day', 'week', 'month']),
    limit: z.number().int(),
    used: z.number().int(),
    threshold: z.union([z.literal(80), z.literal(100)]),
    periodStart: timestamp(),
    periodEnd: timestamp(),
  }),
  'credits.low': z.object({ ...ofKey, subject, remaining: z.number().int(), lowAt: z.number().int() }),
  'credits.exhausted': z.object({
    ...ofKey,
    subject,
    remaining: z.number().int(),
    refillAt: timestamp().nullable(),
  }),
  'key.rate_limited': z.object({ ...ofKey, keyName: z.string(), hourStart: timestamp() }),
};

const DESCRIPTIONS: Record<AlertEventType | typeof ALERT_TEST_EVENT_TYPE, string> = {
  'key.created': 'A key was created (API, admin interface or CLI).',
  'key.rotated': 'A key got a new secret; the old one may overlap.',
  'key.secret_closed': 'A secret of a key was closed (by hand or when its overlap ended).',
  'key.revoked': 'A key was revoked.',
  'key.scopes_changed': 'The scopes of a key changed.',
  'key.expiring': 'A key expires soon: sent 7 and 1 days before its last day ends.',
  'key.expired': 'A key’s last valid day ended.',
  'quota.threshold': 'A quota of a key or identity reached 80 % or 100 %; once per period and threshold.',
  'credits.low': 'A credit balance fell below its `lowAt`; once per refill period.',
  'credits.exhausted': 'A credit balance reached 0 or refused a call; once per refill period.',
  'key.rate_limited': 'A key was refused for a rate limit; at most once a clock hour.',
  [ALERT_TEST_EVENT_TYPE]: 'Sent by `POST /v2/auth/alert-endpoints/{id}:test` to that endpoint only.',
};

function envelope(type: string, data: z.ZodType) {
  return z.object({
    id: z
      .string()
      .meta({ description: 'Event id (`evt_…`); the same event has the same id on every endpoint.' }),
    type: z.literal(type),
    createdAt: timestamp('When the event was recorded.'),
    environment: z
      .enum(['live', 'test'])
      .nullable()
      .meta({ description: 'The key’s environment; null for a test alert.' }),
    data,
  });
}

/** The component name of an alert's envelope, e.g. `QuotaThresholdAlert`. */
export function alertComponentName(type: string): string {
  return `${type
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')}Alert`;
}

/** Each alert type with its envelope schema and description, test alert last. */
export const ALERT_SCHEMAS: ReadonlyArray<{ type: string; schema: z.ZodType; description: string }> = [
  ...Object.entries(ALERT_DATA),
  [
    ALERT_TEST_EVENT_TYPE,
    z.object({ endpointId: z.string(), endpointUrl: z.string(), message: z.string() }),
  ] as const,
].map(([type, data]) => ({
  type,
  schema: responseComponent(alertComponentName(type), envelope(type, data)),
  description: DESCRIPTIONS[type as AlertEventType],
}));
