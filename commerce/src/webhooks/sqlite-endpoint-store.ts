import { and, asc, desc, eq, inArray, lt } from 'drizzle-orm';
import type { CommerceDatabase } from '../db/database.ts';
import { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents } from '../db/webhook-schema.ts';
import type {
  DeliveryRecord,
  DeliveryStatus,
  DisabledReason,
  EndpointRecord,
  EndpointStore,
} from './endpoint-store.ts';

type EndpointRow = typeof webhookEndpoints.$inferSelect;

function toEndpoint(row: EndpointRow): EndpointRecord {
  return {
    ...row,
    eventTypes: row.eventTypes === null ? null : (JSON.parse(row.eventTypes) as string[]),
    disabledReason: row.disabledReason as DisabledReason | null,
  };
}

function toRow(endpoint: EndpointRecord): EndpointRow {
  return {
    ...endpoint,
    eventTypes: endpoint.eventTypes === null ? null : JSON.stringify(endpoint.eventTypes),
  };
}

const deliveryColumns = {
  id: webhookDeliveries.id,
  seq: webhookDeliveries.seq,
  eventId: webhookDeliveries.eventId,
  eventType: webhookEvents.type,
  endpointId: webhookDeliveries.endpointId,
  status: webhookDeliveries.status,
  nextAttemptAt: webhookDeliveries.nextAttemptAt,
  attemptCount: webhookDeliveries.attemptCount,
  createdAt: webhookDeliveries.createdAt,
  completedAt: webhookDeliveries.completedAt,
};

/** The endpoint store on the commerce database. */
export function createSqliteEndpointStore(db: CommerceDatabase): EndpointStore {
  const { orm } = db;
  const selectDeliveries = () =>
    orm
      .select(deliveryColumns)
      .from(webhookDeliveries)
      .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId));
  const toDelivery = (row: { status: string } & Omit<DeliveryRecord, 'status'>): DeliveryRecord => ({
    ...row,
    status: row.status as DeliveryStatus,
  });

  return {
    insertEndpoint(endpoint) {
      orm.insert(webhookEndpoints).values(toRow(endpoint)).run();
    },
    findEndpoint(id) {
      const row = orm.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)).get();
      return row ? toEndpoint(row) : null;
    },
    listEndpoints() {
      return orm
        .select()
        .from(webhookEndpoints)
        .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id))
        .all()
        .map(toEndpoint);
    },
    saveEndpoint(endpoint) {
      const { id, ...fields } = toRow(endpoint);
      orm.update(webhookEndpoints).set(fields).where(eq(webhookEndpoints.id, id)).run();
    },
    deleteEndpoint(id) {
      orm.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id)).run();
    },
    listDeliveries(endpointId, page) {
      const bySeq = page.beforeSeq === null ? undefined : lt(webhookDeliveries.seq, page.beforeSeq);
      const deliveries = selectDeliveries()
        .where(and(eq(webhookDeliveries.endpointId, endpointId), bySeq))
        .orderBy(desc(webhookDeliveries.seq))
        .limit(page.limit)
        .all()
        .map(toDelivery);
      const attempts = orm
        .select()
        .from(webhookAttempts)
        .where(
          inArray(
            webhookAttempts.deliveryId,
            deliveries.map((d) => d.id),
          ),
        )
        .orderBy(asc(webhookAttempts.id))
        .all();
      const byDelivery = Map.groupBy(attempts, (a) => a.deliveryId);
      return deliveries.map((delivery) => ({
        ...delivery,
        attempts: (byDelivery.get(delivery.id) ?? []).map(({ id: _, deliveryId: __, ...attempt }) => attempt),
      }));
    },
    findDelivery(id) {
      const row = selectDeliveries().where(eq(webhookDeliveries.id, id)).get();
      return row ? toDelivery(row) : null;
    },
    requeueDelivery(id, at) {
      orm
        .update(webhookDeliveries)
        .set({ status: 'pending', nextAttemptAt: at, scheduleStep: 0, completedAt: null })
        .where(eq(webhookDeliveries.id, id))
        .run();
    },
  };
}
