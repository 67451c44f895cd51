import type { EventPayloads, EventType, TestEventData } from './event-catalogue.ts';

/** What `record` wrote: the event and how many deliveries it fanned out to. */
export interface RecordedEvent {
  eventId: string;
  type: string;
  deliveryIds: string[];
}

/**
 * The transactional outbox port. Domain services call it inside the transaction of the change an
 * event describes, so the change and its event (with its deliveries) commit together or not at all.
 */
export interface EventOutbox {
  /**
   * Records an event and one pending delivery for each enabled endpoint subscribed to its type.
   * Throws when called outside a transaction.
   */
  record<T extends EventType>(type: T, data: EventPayloads[T]): RecordedEvent;
  /** Records a `webhook.test` event with one delivery, to this endpoint only. */
  recordTest(endpointId: string, data: TestEventData): RecordedEvent;
}
