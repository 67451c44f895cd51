import type { EventOutbox, RecordedEvent } from '../webhooks/outbox.ts';

/** An outbox that also hands the events recorded while `during` runs to its caller. */
export interface EventCapture {
  outbox: EventOutbox;
  /** Runs `change` (synchronous, like every commerce service) and returns what it recorded besides its result. */
  during<T>(change: () => T): { result: T; events: RecordedEvent[] };
}

/** Wraps an outbox so that the sandbox's event trigger learns the id of the event its change emitted. */
export function createEventCapture(outbox: EventOutbox): EventCapture {
  let captured: RecordedEvent[] | null = null;
  return {
    outbox: {
      record(type, data) {
        const recorded = outbox.record(type, data);
        captured?.push(recorded);
        return recorded;
      },
      recordTest: (endpointId, data) => outbox.recordTest(endpointId, data),
    },
    during(change) {
      const events: RecordedEvent[] = [];
      captured = events;
      try {
        return { result: change(), events };
      } finally {
        captured = null;
      }
    },
  };
}
