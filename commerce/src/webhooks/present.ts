import type { DeliveryRecord, DeliveryWithAttempts, EndpointRecord } from './endpoint-store.ts';

/** The JSON shape of an endpoint; secrets are never part of it. */
export function presentEndpoint(endpoint: EndpointRecord) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    eventTypes: endpoint.eventTypes,
    enabled: endpoint.enabled,
    disabledReason: endpoint.disabledReason,
    /** While a rotated secret's overlap lasts, deliveries carry both signatures. */
    secretRotation:
      endpoint.previousSecretExpiresAt === null
        ? null
        : { previousSecretExpiresAt: endpoint.previousSecretExpiresAt },
    failingSince: endpoint.failingSince,
    createdByKeyId: endpoint.createdByKeyId,
    createdAt: endpoint.createdAt,
    updatedAt: endpoint.updatedAt,
  };
}

/** The JSON shape of a delivery (its `id` is the `webhook-id` header), with attempts when listed. */
export function presentDelivery(delivery: DeliveryRecord | DeliveryWithAttempts) {
  return {
    id: delivery.id,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    endpointId: delivery.endpointId,
    status: delivery.status,
    attemptCount: delivery.attemptCount,
    nextAttemptAt: delivery.status === 'pending' ? delivery.nextAttemptAt : null,
    createdAt: delivery.createdAt,
    completedAt: delivery.completedAt,
    ...('attempts' in delivery ? { attempts: delivery.attempts } : {}),
  };
}

/** The cursor of the page after the delivery with this seq. */
export function encodeDeliveryCursor(seq: number): string {
  return Buffer.from(JSON.stringify({ before: seq }), 'utf8').toString('base64url');
}

/** The seq a delivery cursor continues before, or null when it is not one of ours. */
export function decodeDeliveryCursor(cursor: string): number | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      typeof value === 'object' &&
      value !== null &&
      'before' in value &&
      Number.isSafeInteger(value.before)
    ) {
      return value.before as number;
    }
  } catch {
    // fall through
  }
  return null;
}
