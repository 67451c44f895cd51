import { z } from 'zod';
import { RotateSecretSchema } from '../commerce/webhook-endpoints.ts';

/**
 * Alerts: the gateway's own Standard Webhooks (DESIGN.md, "Alerts and analytics"). Event names and
 * the endpoint request shapes are contracts: extend, never rename.
 */
export const ALERT_EVENT_TYPES = [
  'key.created',
  'key.rotated',
  'key.secret_closed',
  'key.revoked',
  'key.scopes_changed',
  'key.expiring',
  'key.expired',
  'quota.threshold',
  'credits.low',
  'credits.exhausted',
  'key.rate_limited',
] as const;

export type AlertEventType = (typeof ALERT_EVENT_TYPES)[number];

/** The event `POST /v2/auth/alert-endpoints/{id}:test` sends, to that endpoint only. */
export const ALERT_TEST_EVENT_TYPE = 'alert.test';

export function isAlertEventType(type: string): type is AlertEventType {
  return (ALERT_EVENT_TYPES as readonly string[]).includes(type);
}

/** The quota fractions (in percent) at which `quota.threshold` is sent, once per period each. */
export const QUOTA_THRESHOLDS = [80, 100] as const;

export const MAX_ALERT_URL_LENGTH = 2048;

/** An absolute http(s) URL without credentials or fragment. */
const AlertUrlSchema = z
  .string({ error: 'url must be an http(s) URL' })
  .max(MAX_ALERT_URL_LENGTH, `url must be at most ${MAX_ALERT_URL_LENGTH} characters`)
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

const DescriptionSchema = z.string().max(500, 'description is at most 500 characters');

/** Event types to subscribe to, or null for all of them. */
const AlertEventTypesSchema = z
  .array(z.string().refine(isAlertEventType, { message: `must be one of ${ALERT_EVENT_TYPES.join(', ')}` }))
  .min(1, 'eventTypes needs at least one event type (null subscribes to all)')
  .max(ALERT_EVENT_TYPES.length * 2)
  .nullable();

/** Only events about these identities, or null for every event. */
const IdentityIdsSchema = z.array(z.string().min(1).max(64)).min(1).max(100).nullable();

/** `POST /v2/auth/alert-endpoints`. */
export const CreateAlertEndpointSchema = z.strictObject({
  url: AlertUrlSchema,
  description: DescriptionSchema.default(''),
  eventTypes: AlertEventTypesSchema.default(null),
  identityIds: IdentityIdsSchema.default(null),
  enabled: z.boolean().default(true),
});

export type CreateAlertEndpointInput = z.infer<typeof CreateAlertEndpointSchema>;

/** `PATCH /v2/auth/alert-endpoints/{id}`: any of the create fields. */
export const UpdateAlertEndpointSchema = z
  .strictObject({
    url: AlertUrlSchema.optional(),
    description: DescriptionSchema.optional(),
    eventTypes: AlertEventTypesSchema.optional(),
    identityIds: IdentityIdsSchema.optional(),
    enabled: z.boolean().optional(),
  })
  .refine(
    (body) => Object.keys(body).length > 0,
    'send at least one of url, description, eventTypes, identityIds, enabled',
  );

export type UpdateAlertEndpointInput = z.infer<typeof UpdateAlertEndpointSchema>;

/** `POST /v2/auth/alert-endpoints/{id}:rotate-secret` (body optional): the same overlap rules as commerce's endpoints. */
export const RotateAlertSecretSchema = RotateSecretSchema;

/** `GET /v2/auth/alert-endpoints/{id}/deliveries`. */
export const ListAlertDeliveriesQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().min(1).max(200).optional(),
});

/** Why an endpoint is disabled: by hand, by a 410 Gone answer, or after failing too long. */
export type AlertDisabledReason = 'manual' | 'gone' | 'failing';

/** An alert endpoint as the API shows it (its secret only once, on create and rotate). */
export interface AlertEndpointView {
  id: string;
  url: string;
  description: string;
  eventTypes: AlertEventType[] | null;
  identityIds: string[] | null;
  enabled: boolean;
  disabledReason: AlertDisabledReason | null;
  /** While a rotated secret overlaps: when the previous one stops signing; else null. */
  previousSecretExpiresAt: string | null;
  failingSince: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The envelope every alert carries (the body of the POST; `webhook-id` is the delivery's id). */
export interface AlertEnvelope<T = Record<string, unknown>> {
  /** `evt_…`: the event, the same for every endpoint it went to. */
  id: string;
  type: AlertEventType | typeof ALERT_TEST_EVENT_TYPE;
  createdAt: string;
  environment: 'live' | 'test' | null;
  data: T;
}
