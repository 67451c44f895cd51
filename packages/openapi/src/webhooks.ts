import {
  DEFAULT_DISABLE_AFTER_MS,
  DEFAULT_JITTER_RATIO,
  DEFAULT_RETRY_SCHEDULE_SECONDS,
  type EventType,
  TEST_EVENT_TYPE,
} from '@keygate/contracts/commerce';
import type { JsonSchema } from './json-schema.ts';
import { refTo } from './json-schema.ts';
import { ALERT_SCHEMAS, alertComponentName } from './schemas/alerts.ts';
import { EVENT_SCHEMAS, eventComponentName } from './schemas/events.ts';

/** The tag of every webhook event. */
export const WEBHOOK_TAG = 'Webhook events';

/** The tag of every gateway alert. */
export const ALERT_TAG = 'Alert events';

/** The Standard Webhooks 1.0 headers of every delivery. */
export const WEBHOOK_HEADER_PARAMETERS: readonly JsonSchema[] = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The delivery id: the same on every retry of this delivery; deduplicate on it.',
    schema: { type: 'string', minLength: 1 },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Unix seconds of this attempt; reject values more than about 5 minutes off.',
    schema: { type: 'string', pattern: '^\\d+$' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      'Space-separated `v1,<base64>` signatures: HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>` keyed with the base64-decoded part of the endpoint secret after `whsec_`. Two signatures while a rotated secret overlaps; accept if any one matches (constant-time compare).',
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$' },
  },
];

const schedule = DEFAULT_RETRY_SCHEDULE_SECONDS.map((seconds) => `${seconds} s`).join(', ');
const DELIVERY_RULES = `Delivered as a POST with a JSON body to every enabled endpoint subscribed to the type. Answer 2xx to acknowledge; anything else (or no answer within the timeout) is retried after ${schedule} (±${DEFAULT_JITTER_RATIO * 100} % jitter, a \`Retry-After\` postpones it). 410 disables the endpoint; an endpoint failing for ${DEFAULT_DISABLE_AFTER_MS / 86_400_000} days without a success is disabled. An endpoint's deliveries arrive one at a time in the order the events happened.`;

/** When each event is sent (commerce/README.md, event catalogue). */
const EVENT_DESCRIPTIONS: Record<EventType | typeof TEST_EVENT_TYPE, string> = {
  'order.created':
    'An order was placed (`POST /v2/carts/{id}:checkout`); `data.order` as `GET /v2/orders/{id}` shows it.',
  'order.status_changed': 'An order was cancelled or fulfilled.',
  'stock.updated': 'On hand or allocated changed: PUT, `:adjust`, checkout, cancel or fulfil.',
  'stock.out_of_stock': 'Available fell from above zero to zero (after the matching `stock.updated`).',
  'stock.back_in_stock': 'Available rose from zero (after the matching `stock.updated`).',
  'customer.created': 'A customer was created.',
  'customer.updated': 'A customer changed; `changed` names the fields.',
  'customer.tier_changed': 'A customer’s tier changed (after the matching `customer.updated`).',
  'product.updated':
    'A product changed: its images were set (`PUT /v2/catalog/products/{sku}/images`) to a list other than the one shown before; `old` and `new` hold the lists as the catalogue shows them.',
  'pricing.price.created': 'A price was created (base, tier or agreement).',
  'pricing.price.updated': 'A price’s terms changed.',
  'pricing.price.deleted': 'A price was deleted; `data.price` is the deleted row.',
  'pricing.vat_rate.updated': 'A VAT rate changed.',
  [TEST_EVENT_TYPE]:
    'Sent by `POST /v2/webhooks/endpoints/{id}:test` to that endpoint only; not subscribable.',
};

function operationIdOf(type: string): string {
  return `receive${eventComponentName(type).replace(/Event$/, '')}`;
}

const ALERT_RULES = `Sent by the gateway as a POST with a JSON body to every enabled alert endpoint (\`/v2/auth/alert-endpoints\`) whose type and identity filters take it, once per event across every gateway instance. Answer 2xx to acknowledge; anything else is retried after ${schedule} (±${DEFAULT_JITTER_RATIO * 100} % jitter, a \`Retry-After\` postpones it); 410 disables the endpoint. Delivery is at least once: deduplicate on \`webhook-id\`. See docs/alerts.md.`;

/** The gateway's alerts: one POST per alert type. */
function buildAlertWebhooks(): Array<[string, JsonSchema]> {
  return ALERT_SCHEMAS.map(({ type, schema, description }) => [
    type,
    {
      post: {
        operationId: `receive${alertComponentName(type)}`,
        tags: [ALERT_TAG],
        summary: type,
        description: `${description}\n\n${ALERT_RULES}`,
        security: [],
        parameters: WEBHOOK_HEADER_PARAMETERS,
        requestBody: { required: true, content: { 'application/json': { schema: refTo(schema) } } },
        responses: {
          '2XX': { description: 'Acknowledged: the delivery succeeded.' },
          '410': { description: 'Gone: the delivery fails and the endpoint is disabled.' },
          default: { description: 'Not acknowledged: the delivery is retried.' },
        },
      },
    },
  ]);
}

/** The top-level `webhooks` object: one POST per event type (commerce's, then the gateway's alerts) with its envelope schema and the signature headers. */
export function buildWebhooks(): Record<string, JsonSchema> {
  return Object.fromEntries([
    ...[...EVENT_SCHEMAS].map(([type, schema]) => [
      type,
      {
        post: {
          operationId: operationIdOf(type),
          tags: [WEBHOOK_TAG],
          summary: type,
          description: `${EVENT_DESCRIPTIONS[type as EventType] ?? type}\n\n${DELIVERY_RULES}`,
          security: [],
          parameters: WEBHOOK_HEADER_PARAMETERS,
          requestBody: { required: true, content: { 'application/json': { schema: refTo(schema) } } },
          responses: {
            '2XX': { description: 'Acknowledged: the delivery succeeded.' },
            '410': { description: 'Gone: the delivery fails and the endpoint is disabled.' },
            default: { description: 'Not acknowledged: the delivery is retried.' },
          },
        },
      },
    ]),
    ...buildAlertWebhooks(),
  ]);
}
