import type { CommerceDatabase } from '../../src/db/database.ts';
import type { EventEnvelope, EventPayloads, EventType } from '../../src/webhooks/event-catalogue.ts';

/** The recorded envelopes of one event type, oldest first. */
export function readEvents<T extends EventType>(
  db: CommerceDatabase,
  type: T,
): Array<EventEnvelope<T, EventPayloads[T]>> {
  return db.sqlite
    .prepare('SELECT body FROM webhook_events WHERE type = ? ORDER BY rowid')
    .all(type)
    .map((row) => JSON.parse((row as { body: string }).body) as EventEnvelope<T, EventPayloads[T]>);
}

/** Every recorded event's type, oldest first. */
export function readEventTypes(db: CommerceDatabase): string[] {
  return db.sqlite
    .prepare('SELECT type FROM webhook_events ORDER BY rowid')
    .all()
    .map((row) => (row as { type: string }).type);
}
