import {
  CreateEndpointSchema,
  DEFAULT_OVERLAP_HOURS,
  EmptyBodySchema,
  ListDeliveriesQuerySchema,
  MAX_OVERLAP_HOURS,
  MAX_URL_LENGTH,
  RotateSecretSchema,
  TriggerEventSchema,
  UpdateEndpointSchema,
} from '@keygate/contracts/commerce';
import { fieldErrors } from '@keygate/problem';
import { CommerceError } from '../errors.ts';
import { EVENT_TYPES, isEventType } from './event-catalogue.ts';

export {
  CreateEndpointSchema,
  DEFAULT_OVERLAP_HOURS,
  EmptyBodySchema,
  ListDeliveriesQuerySchema,
  MAX_OVERLAP_HOURS,
  MAX_URL_LENGTH,
  RotateSecretSchema,
  TriggerEventSchema,
  UpdateEndpointSchema,
};

/**
 * The event filter with duplicates dropped; UNKNOWN_EVENT_TYPE (422) naming each unknown type
 * with its JSON pointer.
 */
export function checkEventTypes(eventTypes: string[] | null): string[] | null {
  if (eventTypes === null) return null;
  const unknown = eventTypes.flatMap((type, index) => (isEventType(type) ? [] : [{ type, index }]));
  if (unknown.length > 0) {
    const issues = unknown.map(({ type, index }) => ({
      path: ['eventTypes', index],
      message: `unknown event type ${type}`,
    }));
    throw new CommerceError(
      'UNKNOWN_EVENT_TYPE',
      `Unknown event types: ${unknown.map((u) => u.type).join(', ')}. See GET /v2/webhooks/event-types.`,
      { errors: fieldErrors(issues), eventTypes: EVENT_TYPES },
    );
  }
  return [...new Set(eventTypes)];
}
