import {
  CreateAlertEndpointSchema,
  ListAlertDeliveriesQuerySchema,
  UpdateAlertEndpointSchema,
} from '@keygate/contracts/gateway';
import { z } from 'zod';
import type { OperationSpec } from '../operation.ts';
import { requestComponent } from '../registries.ts';
import {
  AlertDeliveryPageSchema,
  AlertDeliverySchema,
  AlertEndpointListSchema,
  AlertEndpointSchema,
  AlertEndpointWithSecretSchema,
  AlertStreamSchema,
} from '../schemas/alerts.ts';
import { managementErrors } from './errors.ts';
import { RotateSecretRequest } from './webhook-endpoints.ts';

const CreateRequest = requestComponent('CreateAlertEndpointRequest', CreateAlertEndpointSchema);
const UpdateRequest = requestComponent('UpdateAlertEndpointRequest', UpdateAlertEndpointSchema);

const tag = 'Alerts';
const BASE = '/v2/auth/alert-endpoints';
const URL_RULES =
  ' URLs are absolute http(s) without credentials or fragment; loopback, private and other internal addresses are refused (422 ALERT_URL_NOT_ALLOWED) unless the gateway runs with `KEYGATE_WEBHOOKS_ALLOW_PRIVATE=true`.';

/** Alert endpoints and their deliveries, answered by the gateway itself (scope auth:rw). See docs/alerts.md. */
export const ALERT_OPERATIONS: readonly OperationSpec[] = [
  {
    method: 'POST',
    path: BASE,
    operationId: 'createAlertEndpoint',
    tag,
    kind: 'management',
    summary: 'Create an alert endpoint',
    description: `Subscribes a URL to the gateway's alerts (\`eventTypes\` null: all; \`identityIds\` null: every event). The signing secret is in this response only.${URL_RULES}`,
    body: { schema: CreateRequest, required: true },
    success: {
      status: 201,
      description: 'The endpoint with its secret.',
      schema: AlertEndpointWithSecretSchema,
      location: true,
    },
    errors: managementErrors(['VALIDATION_FAILED', 'ALERT_URL_NOT_ALLOWED'], { body: true }),
  },
  {
    method: 'GET',
    path: BASE,
    operationId: 'listAlertEndpoints',
    tag,
    kind: 'management',
    summary: 'List alert endpoints',
    success: {
      status: 200,
      description: 'Every alert endpoint, oldest first.',
      schema: AlertEndpointListSchema,
    },
    errors: managementErrors([]),
  },
  {
    method: 'GET',
    path: `${BASE}/{id}`,
    operationId: 'getAlertEndpoint',
    tag,
    kind: 'management',
    summary: 'Get an alert endpoint',
    success: { status: 200, description: 'The endpoint (never its secret).', schema: AlertEndpointSchema },
    errors: managementErrors(['ALERT_ENDPOINT_NOT_FOUND']),
  },
  {
    method: 'PATCH',
    path: `${BASE}/{id}`,
    operationId: 'updateAlertEndpoint',
    tag,
    kind: 'management',
    summary: 'Update an alert endpoint',
    description: `Changes the URL, description, event or identity filter, or enables and disables it; enabling clears \`disabledReason\` and sends what waited.${URL_RULES}`,
    body: { schema: UpdateRequest, required: true },
    success: { status: 200, description: 'The endpoint.', schema: AlertEndpointSchema },
    errors: managementErrors(['VALIDATION_FAILED', 'ALERT_ENDPOINT_NOT_FOUND', 'ALERT_URL_NOT_ALLOWED'], {
      body: true,
    }),
  },
  {
    method: 'DELETE',
    path: `${BASE}/{id}`,
    operationId: 'deleteAlertEndpoint',
    tag,
    kind: 'management',
    summary: 'Delete an alert endpoint',
    description: 'Deletes the endpoint with its deliveries.',
    success: { status: 204, description: 'Deleted.' },
    errors: managementErrors(['ALERT_ENDPOINT_NOT_FOUND']),
  },
  {
    method: 'POST',
    path: `${BASE}/{id}:rotate-secret`,
    operationId: 'rotateAlertEndpointSecret',
    tag,
    kind: 'management',
    summary: 'Rotate an alert endpoint secret',
    description:
      'A new signing secret, shown in this response only; the old one keeps signing too for `overlapHours` (default 24, at most 168; 0 ends it at once).',
    body: { schema: RotateSecretRequest, required: false },
    success: {
      status: 200,
      description: 'The endpoint with its new secret.',
      schema: AlertEndpointWithSecretSchema,
    },
    errors: managementErrors(['VALIDATION_FAILED', 'ALERT_ENDPOINT_NOT_FOUND'], { body: true }),
  },
  {
    method: 'POST',
    path: `${BASE}/{id}:test`,
    operationId: 'sendAlertEndpointTest',
    tag,
    kind: 'management',
    summary: 'Send a test alert',
    description: 'Queues an `alert.test` event to this endpoint only.',
    success: { status: 202, description: 'The queued delivery.', schema: AlertDeliverySchema },
    errors: managementErrors(['ALERT_ENDPOINT_NOT_FOUND', 'ALERT_ENDPOINT_DISABLED'], { body: true }),
  },
  {
    method: 'GET',
    path: `${BASE}/{id}/deliveries`,
    operationId: 'listAlertDeliveries',
    tag,
    kind: 'management',
    summary: 'List the deliveries of an alert endpoint',
    description: 'Newest first, each with its latest attempts.',
    query: ListAlertDeliveriesQuerySchema,
    success: { status: 200, description: 'A page of deliveries.', schema: AlertDeliveryPageSchema },
    errors: managementErrors(['VALIDATION_FAILED', 'ALERT_ENDPOINT_NOT_FOUND']),
  },
  {
    method: 'POST',
    path: '/v2/auth/alert-deliveries/{id}:resend',
    operationId: 'resendAlertDelivery',
    tag,
    kind: 'management',
    summary: 'Resend an alert delivery',
    description: 'Sends the delivery again with the same `webhook-id`, starting its retry schedule over.',
    success: { status: 202, description: 'The delivery, pending again.', schema: AlertDeliverySchema },
    errors: managementErrors(
      ['ALERT_DELIVERY_NOT_FOUND', 'ALERT_ENDPOINT_DISABLED', 'ALERT_DELIVERY_IN_FLIGHT'],
      {
        body: true,
      },
    ),
  },
  {
    method: 'GET',
    path: '/v2/auth/alert-events:stream',
    operationId: 'streamAlertEvents',
    tag,
    kind: 'management',
    summary: 'Stream the alerts',
    description:
      "The alerts of the calling key's environment as server-sent events, in the order they were recorded (`id: <position>`, `event: <type>`, `data: <the envelope deliveries send>`), for forwarding to a local machine (`npx @keygate/cli listen`). Send `Last-Event-ID` to resume after a position. Test alerts are left out.",
    headers: z.object({
      'Last-Event-ID': z.string().optional().meta({ description: 'The `id` of the last event received.' }),
    }),
    success: {
      status: 200,
      description: 'The alert stream.',
      schema: AlertStreamSchema,
      contentTypes: ['text/event-stream'],
    },
    errors: managementErrors([]),
  },
];
