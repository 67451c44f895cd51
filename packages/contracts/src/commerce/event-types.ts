/**
 * The webhook event catalogue (documented in commerce/README.md). Every event is sent as the
 * envelope `{id: 'evt_…', type, createdAt, environment, data}`; `data` has the shape below.
 * Updates carry `old` and `new` values. Endpoints subscribe to these types (or to all).
 */
export const EVENT_TYPES = [
  'order.created',
  'order.status_changed',
  'stock.updated',
  'stock.out_of_stock',
  'stock.back_in_stock',
  'customer.created',
  'customer.updated',
  'customer.tier_changed',
  'product.updated',
  'pricing.price.created',
  'pricing.price.updated',
  'pricing.price.deleted',
  'pricing.vat_rate.updated',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** Sent only by `POST /v2/webhooks/endpoints/{id}:test`, to that endpoint, whatever its filter. */
export const TEST_EVENT_TYPE = 'webhook.test';

/** True when `value` names a subscribable event type. */
export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}
