import { z } from 'zod';
import { EVENT_TYPES } from './event-types.ts';

export const MAX_URL_LENGTH = 2048;

export const MAX_OVERLAP_HOURS = 168;

export const DEFAULT_OVERLAP_HOURS = 24;

/** An absolute http(s) URL without credentials or fragment. */
const EndpointUrlSchema = z
  .string({ error: 'url must be an http(s) URL' })
  .max(MAX_URL_LENGTH, `url must be at most ${MAX_URL_LENGTH} characters`)
  .superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'url must be an absolute http(s) URL' });
      return;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      ctx.addIssue({
        code: 'custom',
        message: `url must use http or https, not ${url.protocol.slice(0, -1)}`,
      });
    } else if (url.username || url.password) {
      ctx.addIssue({ code: 'custom', message: 'url must not contain credentials' });
    } else if (url.hash) {
      ctx.addIssue({ code: 'custom', message: 'url must not contain a fragment' });
    }
  });

const DescriptionSchema = z
  .string({ error: 'description must be a string' })
  .max(500, 'description is at most 500 characters');

/** Event types to subscribe to, or null for all of them. Membership is checked by `checkEventTypes`. */
const EventTypesSchema = z
  .array(z.string({ error: 'each event type is a string' }).max(100), {
    error: 'eventTypes must be an array of event types, or null for all',
  })
  .min(1, 'eventTypes needs at least one event type (null subscribes to all)')
  .max(EVENT_TYPES.length * 2)
  .nullable();

const EnabledSchema = z.boolean({ error: 'enabled must be true or false' });

/** Body of POST /v2/webhooks/endpoints. */
export const CreateEndpointSchema = z.strictObject(
  {
    url: EndpointUrlSchema,
    description: DescriptionSchema.default(''),
    eventTypes: EventTypesSchema.default(null),
    enabled: EnabledSchema.default(true),
  },
  { error: 'the body must be a JSON object {url, description?, eventTypes?, enabled?}' },
);

/** Body of PATCH /v2/webhooks/endpoints/{id}: any of url, description, eventTypes, enabled. */
export const UpdateEndpointSchema = z
  .strictObject(
    {
      url: EndpointUrlSchema.optional(),
      description: DescriptionSchema.optional(),
      eventTypes: EventTypesSchema.optional(),
      enabled: EnabledSchema.optional(),
    },
    { error: 'the body must be a JSON object {url?, description?, eventTypes?, enabled?}' },
  )
  .refine(
    (body) => Object.keys(body).length > 0,
    'send at least one of url, description, eventTypes, enabled',
  );

/** Body of POST /v2/webhooks/endpoints/{id}:rotate-secret (optional). */
export const RotateSecretSchema = z
  .strictObject(
    {
      overlapHours: z
        .number({ error: `overlapHours must be an integer 0..${MAX_OVERLAP_HOURS}` })
        .int(`overlapHours must be an integer 0..${MAX_OVERLAP_HOURS}`)
        .min(0, `overlapHours must be an integer 0..${MAX_OVERLAP_HOURS}`)
        .max(MAX_OVERLAP_HOURS, `overlapHours must be an integer 0..${MAX_OVERLAP_HOURS}`)
        .default(DEFAULT_OVERLAP_HOURS),
    },
    { error: 'the body must be a JSON object {overlapHours?}' },
  )
  .optional()
  .transform((body) => body ?? { overlapHours: DEFAULT_OVERLAP_HOURS });

/** A body that must be absent or `{}` (test, close-old-secret, resend). */
export const EmptyBodySchema = z
  .strictObject({}, { error: 'send no body or an empty JSON object' })
  .optional();

/** Body of POST /v2/webhooks/events:trigger (test environment): the event type to emit. */
export const TriggerEventSchema = z.strictObject(
  { type: z.string({ error: 'type must be an event type such as order.created' }).max(100) },
  { error: 'the body must be a JSON object {type}' },
);

/** Query of GET /v2/webhooks/endpoints/{id}/deliveries. */
export const ListDeliveriesQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'must be an integer 1..100' })
    .int('must be an integer 1..100')
    .min(1, 'must be an integer 1..100')
    .max(100, 'must be an integer 1..100')
    .default(20),
  cursor: z.string().min(1).max(200).optional(),
});
