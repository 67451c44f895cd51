import {
  ALERT_TEST_EVENT_TYPE,
  type AlertEnvelope,
  type AlertEventType,
  type Environment,
} from '@keygate/contracts/gateway';
import { newId } from '../keys/token.ts';
import type { AlertStore, NewAlertEvent } from '../model/alert-store.ts';

/** Who and what an event is about, and how it is told apart from a repeat of itself. */
export interface AlertSubject {
  /** Unique per event: a second record with the same key, from any instance, is dropped. */
  dedupeKey: string;
  environment: Environment | null;
  /** The identity the event is about, for endpoints filtering by identity. */
  identityId: string | null;
  /** Epoch ms when the event is due (default now): a scheduled event such as `key.expired`. */
  deliverAt?: number;
}

/** Records alert events into the store's outbox and wakes this instance's worker. */
export interface AlertOutbox {
  /** Records the event (no-op when its dedupe key was recorded before); true when it was new. */
  record(type: AlertEventType, data: Record<string, unknown>, subject: AlertSubject): Promise<boolean>;
  /** The event as `record` would store it, for a store to record with a change (KeyChange.alerts). */
  build(type: AlertEventType, data: Record<string, unknown>, subject: AlertSubject): NewAlertEvent;
  /** Wakes the delivery worker after a store recorded built events. */
  notify(): void;
  /** A test event to one endpoint; returns its delivery id. */
  recordTest(endpoint: { id: string; url: string }): Promise<string>;
}

export function createAlertOutbox(deps: {
  store: AlertStore;
  clock: () => number;
  /** Wakes the delivery worker. */
  notify(): void;
}): AlertOutbox {
  const { store, clock } = deps;
  function envelope(
    type: AlertEnvelope['type'],
    data: Record<string, unknown>,
    environment: Environment | null,
  ) {
    const nowMs = clock();
    const event: AlertEnvelope = {
      id: newId('evt'),
      type,
      createdAt: new Date(nowMs).toISOString(),
      environment,
      data,
    };
    return { event, nowMs };
  }
  function build(type: AlertEventType, data: Record<string, unknown>, subject: AlertSubject): NewAlertEvent {
    const { event, nowMs } = envelope(type, data, subject.environment);
    return {
      id: event.id,
      type,
      dedupeKey: subject.dedupeKey,
      identityId: subject.identityId,
      body: JSON.stringify(event),
      createdAt: event.createdAt,
      deliverAt: subject.deliverAt ?? nowMs,
    };
  }
  return {
    build,
    notify: () => deps.notify(),
    async record(type, data, subject) {
      const deliveries = await store.recordEvent(build(type, data, subject));
      if (deliveries !== null && deliveries.length > 0) deps.notify();
      return deliveries !== null;
    },
    async recordTest({ id: endpointId, url }) {
      const data = {
        endpointId,
        endpointUrl: url,
        message: 'A test alert from the keygate gateway; nothing happened.',
      };
      const { event, nowMs } = envelope(ALERT_TEST_EVENT_TYPE, data, null);
      const id = await store.recordTest(endpointId, {
        id: event.id,
        type: ALERT_TEST_EVENT_TYPE,
        dedupeKey: `test:${event.id}`,
        identityId: null,
        body: JSON.stringify(event),
        createdAt: event.createdAt,
        deliverAt: nowMs,
      });
      deps.notify();
      return id;
    },
  };
}
