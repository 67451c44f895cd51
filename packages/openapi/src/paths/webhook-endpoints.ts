import {
  CreateEndpointSchema,
  EmptyBodySchema,
  ListDeliveriesQuerySchema,
  RotateSecretSchema,
  TriggerEventSchema,
  UpdateEndpointSchema,
} from '@keygate/contracts/commerce';
import { z } from 'zod';
import type { OperationSpec } from '../operation.ts';
import { requestComponent } from '../registries.ts';
import {
  EventStreamSchema,
  EventTypeListSchema,
  TriggeredEventSchema,
  WebhookDeliveryPageSchema,
  WebhookDeliverySchema,
  WebhookEndpointListSchema,
  WebhookEndpointSchema,
  WebhookEndpointWithSecretSchema,
} from '../schemas/webhooks.ts';
import { proxiedErrors } from './errors.ts';

const CreateEndpointRequest = requestComponent('CreateWebhookEndpointRequest', CreateEndpointSchema);
const UpdateEndpointRequest = requestComponent('UpdateWebhookEndpointRequest', UpdateEndpointSchema);
/** Shared with the gateway's alert endpoints, whose rotation follows the same rules. */
export const RotateSecretRequest = requestComponent('RotateWebhookSecretRequest', RotateSecretSchema);
const EmptyRequest = requestComponent('EmptyRequest', EmptyBodySchema);
const TriggerEventRequest = requestComponent('TriggerEventRequest', TriggerEventSchema);

const tag = 'Webhooks';
const BASE = '/v2/webhooks/endpoints';
const URL_RULES =
  ' URLs are absolute http(s) without credentials or fragment; loopback, private and other internal addresses are refused (422 ENDPOINT_URL_NOT_ALLOWED).';

/** Webhook endpoints and deliveries (scope webhook:r / webhook:rw); endpoints are environment-wide. */
export const WEBHOOK_OPERATIONS: readonly OperationSpec[] = [
  {
    method: 'GET',
    path: '/v2/webhooks/event-types',
    operationId: 'listWebhookEventTypes',
    tag,
    kind: 'proxied',
    summary: 'List the event types',
    success: { status: 200, description: 'Subscribable event types.', schema: EventTypeListSchema },
    errors: proxiedErrors([]),
  },
  {
    method: 'POST',
    path: BASE,
    operationId: 'createWebhookEndpoint',
    tag,
    kind: 'proxied',
    summary: 'Create a webhook endpoint',
    description: `Subscribes a URL to event types (\`null\`: all). The signing secret is in this response only.${URL_RULES}`,
    body: { schema: CreateEndpointRequest, required: true },
    success: {
      status: 201,
      description: 'The endpoint with its secret.',
      schema: WebhookEndpointWithSecretSchema,
      location: true,
    },
    errors: proxiedErrors(['UNKNOWN_EVENT_TYPE', 'ENDPOINT_URL_NOT_ALLOWED'], { body: true }),
  },
  {
    method: 'GET',
    path: BASE,
    operationId: 'listWebhookEndpoints',
    tag,
    kind: 'proxied',
    summary: 'List webhook endpoints',
    success: {
      status: 200,
      description: 'Every endpoint of the environment, oldest first.',
      schema: WebhookEndpointListSchema,
    },
    errors: proxiedErrors([]),
  },
  {
    method: 'GET',
    path: `${BASE}/{id}`,
    operationId: 'getWebhookEndpoint',
    tag,
    kind: 'proxied',
    summary: 'Get a webhook endpoint',
    success: { status: 200, description: 'The endpoint (never its secret).', schema: WebhookEndpointSchema },
    errors: proxiedErrors(['ENDPOINT_NOT_FOUND']),
  },
  {
    method: 'PATCH',
    path: `${BASE}/{id}`,
    operationId: 'updateWebhookEndpoint',
    tag,
    kind: 'proxied',
    summary: 'Change a webhook endpoint',
    description: `Changes url, description, event types or enabled; enabling clears the disabled reason and sends held deliveries in order.${URL_RULES}`,
    body: { schema: UpdateEndpointRequest, required: true },
    success: { status: 200, description: 'The endpoint.', schema: WebhookEndpointSchema },
    errors: proxiedErrors(['ENDPOINT_NOT_FOUND', 'UNKNOWN_EVENT_TYPE', 'ENDPOINT_URL_NOT_ALLOWED'], {
      body: true,
    }),
  },
  {
    method: 'DELETE',
    path: `${BASE}/{id}`,
    operationId: 'deleteWebhookEndpoint',
    tag,
    kind: 'proxied',
    summary: 'Delete a webhook endpoint',
    description: 'Deletes the endpoint with its deliveries.',
    success: { status: 204, description: 'Deleted.' },
    errors: proxiedErrors(['ENDPOINT_NOT_FOUND']),
  },
  {
    method: 'POST',
    path: `${BASE}/{id}:rotate-secret`,
    operationId: 'rotateWebhookSecret',
    tag,
    kind: 'proxied',
    summary: 'Rotate the signing secret of an endpoint',
    description:
      'A new secret (in this response only); the old one keeps signing for `overlapHours` (0..168, default 24), so deliveries carry both signatures meanwhile.',
    body: { schema: RotateSecretRequest, required: false },
    success: {
      status: 200,
      description: 'The endpoint with its new secret.',
      schema: WebhookEndpointWithSecretSchema,
    },
    errors: proxiedErrors(['ENDPOINT_NOT_FOUND'], { body: true }),
  },
  {
    method: 'POST',
    path: `${BASE}/{id}:close-old-secret`,
    operationId: 'closeOldWebhookSecret',
    tag,
    kind: 'proxied',
    summary: 'End a secret rotation overlap now',
    description: 'Only the new secret signs from here on. Send no body or `{}`.',
    body: { schema: EmptyRequest, required: false },
    success: { status: 200, description: 'The endpoint.', schema: WebhookEndpointSchema },
    errors: proxiedErrors(['ENDPOINT_NOT_FOUND'], { body: true }),
  },
  {
    method: 'POST',
    path: `${BASE}/{id}:test`,
    operationId: 'sendWebhookTest',
    tag,
    kind: 'proxied',
    summary: 'Send a test event to an endpoint',
    description:
      'Queues a `webhook.test` event to this endpoint only, whatever its filter. Send no body or `{}`.',
    body: { schema: EmptyRequest, required: false },
    success: { status: 202, description: 'The queued delivery.', schema: WebhookDeliverySchema },
    errors: proxiedErrors(['ENDPOINT_NOT_FOUND', 'ENDPOINT_DISABLED'], { body: true }),
  },
  {
    method: 'GET',
    path: `${BASE}/{id}/deliveries`,
    operationId: 'listWebhookDeliveries',
    tag,
    kind: 'proxied',
    summary: 'List the deliveries of an endpoint',
    description:
      'Newest first, each with every attempt (status code, duration, up to 1 KiB of the response).',
    query: ListDeliveriesQuerySchema,
    success: { status: 200, description: 'A page of deliveries.', schema: WebhookDeliveryPageSchema },
    errors: proxiedErrors(['ENDPOINT_NOT_FOUND', 'VALIDATION_FAILED', 'INVALID_CURSOR']),
  },
  {
    method: 'POST',
    path: '/v2/webhooks/deliveries/{id}:resend',
    operationId: 'resendWebhookDelivery',
    tag,
    kind: 'proxied',
    summary: 'Send a delivery again',
    description:
      'Re-queues the delivery in its original place, with the same `webhook-id`. Send no body or `{}`.',
    body: { schema: EmptyRequest, required: false },
    success: { status: 202, description: 'The re-queued delivery.', schema: WebhookDeliverySchema },
    errors: proxiedErrors(['DELIVERY_NOT_FOUND', 'ENDPOINT_DISABLED', 'DELIVERY_IN_FLIGHT'], { body: true }),
  },
  {
    method: 'POST',
    path: '/v2/webhooks/events:trigger',
    operationId: 'triggerWebhookEvent',
    tag,
    kind: 'proxied',
    summary: 'Trigger an event (test environment)',
    description:
      'Sandbox: makes a real change in the test environment that emits an event of `type` through the normal outbox (an order placed for `order.created`, a stock level changed for `stock.updated`, a customer or price created or changed for the others) and answers its id; subscribed endpoints get it as any other delivery. Test keys only: a live key gets 403 `SANDBOX_ONLY`.',
    body: { schema: TriggerEventRequest, required: true },
    success: { status: 200, description: 'The emitted event.', schema: TriggeredEventSchema },
    errors: proxiedErrors(['UNKNOWN_EVENT_TYPE', 'SANDBOX_ONLY', 'INSUFFICIENT_STOCK'], { body: true }),
  },
  {
    method: 'GET',
    path: '/v2/webhooks/events:stream',
    operationId: 'streamWebhookEvents',
    tag,
    kind: 'proxied',
    summary: 'Stream the events (test environment)',
    description:
      "Sandbox: the test environment's events as server-sent events, in the order they were recorded, for forwarding to a local machine (`npx @keygate/cli listen`). Send `Last-Event-ID` to resume after an event: every later event comes, none twice. Counts as one call for the rate limit; no upstream timeout applies; the gateway ends the stream once the key is revoked, expires or its secret is closed. Test keys only: a live key gets 403 `SANDBOX_ONLY`.",
    headers: z.object({
      'Last-Event-ID': z.string().optional().meta({ description: 'The `id` of the last event received.' }),
    }),
    success: {
      status: 200,
      description: 'The event stream.',
      schema: EventStreamSchema,
      contentTypes: ['text/event-stream'],
    },
    errors: proxiedErrors(['SANDBOX_ONLY']),
  },
];
