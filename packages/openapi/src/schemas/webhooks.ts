import { EVENT_TYPES, TEST_EVENT_TYPE } from '@keygate/contracts/commerce';
import { z } from 'zod';
import { responseComponent } from '../registries.ts';
import { count, NextCursorSchema, timestamp } from './common.ts';

/** A webhook event type an endpoint can subscribe to. */
export const EventTypeSchema = responseComponent('EventType', z.enum(EVENT_TYPES));

/** `GET /v2/webhooks/event-types`: every subscribable event type. */
export const EventTypeListSchema = responseComponent(
  'EventTypeList',
  z.object({
    data: z.array(EventTypeSchema),
    testEventType: z
      .literal(TEST_EVENT_TYPE)
      .meta({ description: 'Sent only by `:test`; not subscribable.' }),
  }),
);

/** A webhook endpoint (`whe_…`): URL, subscribed event types, enabled state and secret rotation. */
export const WebhookEndpointSchema = responseComponent(
  'WebhookEndpoint',
  z.object({
    id: z.string(),
    url: z.string().meta({ format: 'uri' }),
    description: z.string(),
    eventTypes: z
      .array(EventTypeSchema)
      .nullable()
      .meta({ description: 'Subscribed event types; null subscribes to every type.' }),
    enabled: z.boolean(),
    disabledReason: z
      .enum(['manual', 'gone', 'failing'])
      .nullable()
      .meta({ description: 'Why the endpoint is disabled: by hand, after a 410, or after failing 5 days.' }),
    secretRotation: z
      .object({ previousSecretExpiresAt: timestamp() })
      .nullable()
      .meta({ description: 'While a rotated secret overlaps, deliveries carry both signatures.' }),
    failingSince: timestamp().nullable(),
    createdByKeyId: z.string(),
    createdAt: timestamp(),
    updatedAt: timestamp(),
  }),
);

/** A webhook endpoint just created or with a rotated secret, with the signing secret: shown this once. */
export const WebhookEndpointWithSecretSchema = responseComponent(
  'WebhookEndpointWithSecret',
  WebhookEndpointSchema.extend({
    secret: z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/=]+$/)
      .meta({ description: 'The signing secret (`whsec_` + base64), shown only here.' }),
  }),
);

/** `GET /v2/webhooks/endpoints`: every endpoint of the environment. */
export const WebhookEndpointListSchema = responseComponent(
  'WebhookEndpointList',
  z.object({ data: z.array(WebhookEndpointSchema) }),
);

/** One attempt to deliver a message: when, the answer or error, and how long it took. */
export const DeliveryAttemptSchema = responseComponent(
  'DeliveryAttempt',
  z.object({
    startedAt: timestamp(),
    finishedAt: timestamp().nullable(),
    webhookTimestamp: z.number().int().meta({ description: 'The `webhook-timestamp` sent (Unix seconds).' }),
    statusCode: z.number().int().nullable(),
    durationMs: z.number().nullable(),
    response: z.string().nullable().meta({ description: 'At most 1 KiB of the response body.' }),
    responseTruncated: z.boolean(),
    error: z.string().nullable(),
  }),
);

const deliveryFields = {
  id: z.string().meta({ description: 'The `webhook-id` of every attempt of this delivery.' }),
  eventId: z.string(),
  eventType: z.string().meta({ description: 'An event type, or `webhook.test`.' }),
  endpointId: z.string(),
  status: z.enum(['pending', 'delivering', 'succeeded', 'failed']),
  attemptCount: count('Attempts made so far.'),
  nextAttemptAt: timestamp().nullable().meta({ description: 'When a pending delivery is tried next.' }),
  createdAt: timestamp(),
  completedAt: timestamp().nullable(),
};

/** One message (`msg_…`) sent to an endpoint, and its delivery state. */
export const WebhookDeliverySchema = responseComponent('WebhookDelivery', z.object(deliveryFields));

/** A page of an endpoint's deliveries with their attempts, newest first. */
export const WebhookDeliveryPageSchema = responseComponent(
  'WebhookDeliveryPage',
  z.object({
    data: z.array(z.object({ ...deliveryFields, attempts: z.array(DeliveryAttemptSchema) })),
    nextCursor: NextCursorSchema,
  }),
);

/** `POST /v2/webhooks/events:trigger` (test environment): the event the sandbox's change emitted. */
export const TriggeredEventSchema = responseComponent(
  'TriggeredEvent',
  z.object({
    eventId: z.string().meta({ description: 'The `evt_…` id: the `webhook-id` of its deliveries.' }),
    type: EventTypeSchema,
  }),
);

/** `GET /v2/webhooks/events:stream`: server-sent events, each `id: evt_…`, `event: <type>`, `data: <envelope>`. */
export const EventStreamSchema = responseComponent(
  'EventStream',
  z.string().meta({
    description:
      'A text/event-stream: per event `id: evt_…`, `event: <type>` and `data: <the envelope every delivery sends>`, then a blank line; comment lines (`: keep-alive`) keep it open.',
    example:
      'id: evt_3kTMd0dYz0ZGJ3q5Rk2vXW\nevent: order.created\ndata: {"id":"evt_3kTMd0dYz0ZGJ3q5Rk2vXW","type":"order.created",…}\n\n',
  }),
);
