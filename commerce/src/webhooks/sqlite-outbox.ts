import type { Environment } from '@keygate/identity';
import { sql } from 'drizzle-orm';
import type { CommerceDatabase } from '../db/database.ts';
import { webhookDeliveries, webhookEndpoints, webhookEvents } from '../db/webhook-schema.ts';
import { createRandomId } from '../ids.ts';
import { type EventEnvelope, TEST_EVENT_TYPE } from './event-catalogue.ts';
import type { EventOutbox, RecordedEvent } from './outbox.ts';

export interface SqliteOutboxOptions {
  environment: Environment;
  clock: () => Date;
  /**
   * Called after an event is recorded, still inside the caller's transaction: it may only schedule
   * work for later (the worker's `notify`), never read the rows, which may yet roll back.
   */
  onRecorded?: () => void;
  /** The writer's `traceparent` (tracing on): each delivery's span links to the trace that caused it. */
  traceparentNow?: () => string | null;
}

/** The outbox on the commerce database: rows in `webhook_events` and `webhook_deliveries`. */
export function createSqliteOutbox(db: CommerceDatabase, options: SqliteOutboxOptions): EventOutbox {
  const { orm, sqlite } = db;
  const subscribed = orm
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      sql`${webhookEndpoints.enabled} = 1 AND (${webhookEndpoints.eventTypes} IS NULL OR EXISTS (SELECT 1 FROM json_each(${webhookEndpoints.eventTypes}) WHERE value = ${sql.placeholder('type')}))`,
    )
    .orderBy(webhookEndpoints.createdAt, webhookEndpoints.id)
    .prepare();

  function write(type: string, data: unknown, endpointIds: string[]): RecordedEvent {
    if (!sqlite.inTransaction) throw new Error(`event ${type} recorded outside a transaction`);
    const createdAt = options.clock().toISOString();
    const envelope: EventEnvelope = {
      id: createRandomId('evt'),
      type,
      createdAt,
      environment: options.environment,
      data,
    };
    orm
      .insert(webhookEvents)
      .values({
        id: envelope.id,
        type,
        body: JSON.stringify(envelope),
        createdAt,
        traceparent: options.traceparentNow?.() ?? null,
      })
      .run();
    const deliveryIds = endpointIds.map((endpointId) => {
      const id = createRandomId('msg');
      orm
        .insert(webhookDeliveries)
        .values({
          id,
          eventId: envelope.id,
          endpointId,
          status: 'pending',
          nextAttemptAt: createdAt,
          createdAt,
        })
        .run();
      return id;
    });
    if (deliveryIds.length > 0) options.onRecorded?.();
    return { eventId: envelope.id, type, deliveryIds };
  }

  return {
    record(type, data) {
      return write(
        type,
        data,
        subscribed.all({ type }).map((row) => row.id),
      );
    },
    recordTest(endpointId, data) {
      return write(TEST_EVENT_TYPE, data, [endpointId]);
    },
  };
}
