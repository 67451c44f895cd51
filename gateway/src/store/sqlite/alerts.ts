import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import {
  type AlertClaim,
  type AlertDeliveryRecord,
  type AlertEndpointRecord,
  type AlertStore,
  DEDUPE_RETENTION_MS,
  deliveryIdOf,
  endpointTakes,
  KEPT_ATTEMPTS,
  type NewAlertEvent,
  signingSecrets,
} from '../../model/alert-store.ts';

interface EndpointRow {
  id: string;
  url: string;
  description: string;
  event_types: string | null;
  identity_ids: string | null;
  enabled: number;
  disabled_reason: string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  failing_since: string | null;
  created_by_key_id: string;
  created_at: string;
  updated_at: string;
}

interface DeliveryRow {
  seq: number;
  id: string;
  event_id: string;
  endpoint_id: string;
  event_type: string;
  status: AlertDeliveryRecord['status'];
  next_attempt_at: number | null;
  lease_until: number | null;
  lease_token: string | null;
  schedule_step: number;
  attempt_count: number;
  attempts: string;
  created_at: string;
  completed_at: string | null;
}

function endpointOf(row: EndpointRow): AlertEndpointRecord {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    eventTypes: row.event_types === null ? null : (JSON.parse(row.event_types) as string[]),
    identityIds: row.identity_ids === null ? null : (JSON.parse(row.identity_ids) as string[]),
    enabled: row.enabled === 1,
    disabledReason: row.disabled_reason as AlertEndpointRecord['disabledReason'],
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretExpiresAt: row.previous_secret_expires_at,
    failingSince: row.failing_since,
    createdByKeyId: row.created_by_key_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function endpointParams(e: AlertEndpointRecord) {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    event_types: e.eventTypes === null ? null : JSON.stringify(e.eventTypes),
    identity_ids: e.identityIds === null ? null : JSON.stringify(e.identityIds),
    enabled: e.enabled ? 1 : 0,
    disabled_reason: e.disabledReason,
    secret: e.secret,
    previous_secret: e.previousSecret,
    previous_secret_expires_at: e.previousSecretExpiresAt,
    failing_since: e.failingSince,
    created_by_key_id: e.createdByKeyId,
    created_at: e.createdAt,
    updated_at: e.updatedAt,
  };
}

function deliveryOf(row: DeliveryRow): AlertDeliveryRecord {
  return {
    id: row.id,
    seq: row.seq,
    eventId: row.event_id,
    eventType: row.event_type,
    endpointId: row.endpoint_id,
    status: row.status,
    nextAttemptAt: row.next_attempt_at === null ? null : new Date(row.next_attempt_at).toISOString(),
    attemptCount: row.attempt_count,
    createdAt: row.created_at,
    completedAt: row.completed_at,
    attempts: JSON.parse(row.attempts) as AlertDeliveryRecord['attempts'],
  };
}

const ENDPOINT_COLUMNS =
  'id, url, description, event_types, identity_ids, enabled, disabled_reason, secret, previous_secret, previous_secret_expires_at, failing_since, created_by_key_id, created_at, updated_at';
const ENDPOINT_VALUES =
  '@id, @url, @description, @event_types, @identity_ids, @enabled, @disabled_reason, @secret, @previous_secret, @previous_secret_expires_at, @failing_since, @created_by_key_id, @created_at, @updated_at';

/** The SQLite alert store, with the synchronous recording a key change's transaction runs. */
export type SqliteAlertStore = AlertStore & {
  /** Records an event as `recordEvent` does, inside the caller's transaction (no promise, no await). */
  recordEventNow(event: NewAlertEvent): string[] | null;
};

/**
 * The alert outbox on the gateway's SQLite file (tables `alert_*`, migration 0009_alerts). Every
 * method is one transaction; a claim leases its delivery, so two processes on one file (a gateway
 * and a CLI, or a restart) never attempt it twice at once.
 */
export function createSqliteAlertStore(client: Database.Database): SqliteAlertStore {
  const insertEndpoint = client.prepare(
    `INSERT INTO alert_endpoints (${ENDPOINT_COLUMNS}) VALUES (${ENDPOINT_VALUES})`,
  );
  const replaceEndpoint = client.prepare(
    `UPDATE alert_endpoints SET (${ENDPOINT_COLUMNS}) = (${ENDPOINT_VALUES}) WHERE id = @id`,
  );
  const endpointById = client.prepare<[string], EndpointRow>('SELECT * FROM alert_endpoints WHERE id = ?');
  const allEndpoints = client.prepare<[], EndpointRow>(
    'SELECT * FROM alert_endpoints ORDER BY created_at, id',
  );
  const insertEvent = client.prepare(
    'INSERT INTO alert_events (id, type, dedupe_key, identity_id, body, created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (dedupe_key) DO NOTHING',
  );
  const insertDelivery = client.prepare(
    `INSERT INTO alert_deliveries (id, event_id, endpoint_id, event_type, status, next_attempt_at, schedule_step, attempt_count, attempts, created_at)
     VALUES (?, ?, ?, ?, 'pending', ?, 0, 0, '[]', ?)`,
  );
  const dueRows = client.prepare<[number, number, number], DeliveryRow & { body: string }>(
    `SELECT d.*, e.body FROM alert_deliveries d JOIN alert_events e ON e.id = d.event_id
     JOIN alert_endpoints p ON p.id = d.endpoint_id AND p.enabled = 1
     WHERE (d.status = 'pending' AND d.next_attempt_at <= ?) OR (d.status = 'delivering' AND d.lease_until <= ?)
     ORDER BY d.seq LIMIT ?`,
  );
  const lease = client.prepare(
    `UPDATE alert_deliveries SET status = 'delivering', lease_until = ?, lease_token = ? WHERE id = ?`,
  );
  const deliveryById = client.prepare<[string], DeliveryRow>('SELECT * FROM alert_deliveries WHERE id = ?');
  const finish = client.prepare(
    `UPDATE alert_deliveries SET status = ?, next_attempt_at = ?, lease_until = NULL, lease_token = NULL,
       schedule_step = ?, attempt_count = attempt_count + 1, attempts = ?, completed_at = ? WHERE id = ?`,
  );
  const pageOf = client.prepare<[string, number, number], DeliveryRow>(
    'SELECT * FROM alert_deliveries WHERE endpoint_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?',
  );
  const requeue = client.prepare(
    `UPDATE alert_deliveries SET status = 'pending', next_attempt_at = ?, schedule_step = 0, completed_at = NULL,
       lease_until = NULL, lease_token = NULL WHERE id = ? AND status <> 'delivering'`,
  );
  const eventsAfter = client.prepare<[number, number], { seq: number; type: string; body: string }>(
    `SELECT rowid AS seq, type, body FROM alert_events WHERE rowid > ? AND type <> 'alert.test' ORDER BY rowid LIMIT ?`,
  );
  const lastEvent = client.prepare<[], { seq: number | null }>('SELECT max(rowid) AS seq FROM alert_events');
  const pruneDeliveries = client.prepare(
    `DELETE FROM alert_deliveries WHERE seq IN (SELECT seq FROM alert_deliveries
       WHERE status IN ('succeeded', 'failed') AND completed_at < ? ORDER BY seq LIMIT ?)`,
  );
  const pruneEvents = client.prepare(
    `DELETE FROM alert_events WHERE rowid IN (SELECT e.rowid FROM alert_events e WHERE e.created_at < ?
       AND NOT EXISTS (SELECT 1 FROM alert_deliveries d WHERE d.event_id = e.id) LIMIT ?)`,
  );
  const pending = client.prepare<[], { n: number }>(
    `SELECT count(*) AS n FROM alert_deliveries d JOIN alert_endpoints p ON p.id = d.endpoint_id AND p.enabled = 1
     WHERE d.status IN ('pending', 'delivering')`,
  );

  const record = client.transaction(
    (event: Parameters<AlertStore['recordEvent']>[0], endpoints: Pick<AlertEndpointRecord, 'id'>[]) => {
      const inserted = insertEvent.run(
        event.id,
        event.type,
        event.dedupeKey,
        event.identityId,
        event.body,
        event.createdAt,
      );
      if (inserted.changes === 0) return null;
      return endpoints.map((endpoint, n) => {
        const id = deliveryIdOf(event.id, n);
        insertDelivery.run(id, event.id, endpoint.id, event.type, event.deliverAt, event.createdAt);
        return id;
      });
    },
  );
  const claim = client.transaction((nowMs: number, limit: number, leaseMs: number): AlertClaim[] => {
    return dueRows.all(nowMs, nowMs, limit).map((row) => {
      const endpoint = endpointOf(endpointById.get(row.endpoint_id)!);
      const token = randomUUID();
      lease.run(nowMs + leaseMs, token, row.id);
      return {
        deliveryId: row.id,
        endpointId: row.endpoint_id,
        url: endpoint.url,
        secrets: signingSecrets(endpoint, nowMs),
        body: row.body,
        eventType: row.event_type,
        scheduleStep: row.schedule_step,
        webhookTimestamp: Math.floor(nowMs / 1000),
        failingSince: endpoint.failingSince,
        leaseToken: token,
      };
    });
  });
  const complete = client.transaction(
    (...[c, attempt, outcome, at]: Parameters<AlertStore['completeAttempt']>) => {
      const row = deliveryById.get(c.deliveryId);
      if (row?.status !== 'delivering' || row.lease_token !== c.leaseToken) return false;
      const attempts = [attempt, ...(JSON.parse(row.attempts) as unknown[])].slice(0, KEPT_ATTEMPTS);
      const done = outcome.status === 'pending' ? null : at.toISOString();
      finish.run(
        outcome.status,
        outcome.nextAttemptAt?.getTime() ?? null,
        outcome.scheduleStep,
        JSON.stringify(attempts),
        done,
        c.deliveryId,
      );
      const endpointRow = endpointById.get(c.endpointId);
      if (endpointRow) {
        const endpoint = endpointOf(endpointRow);
        const failingSince = outcome.failingSince?.toISOString() ?? null;
        const next = { ...endpoint, failingSince };
        if (outcome.disable && endpoint.enabled)
          Object.assign(next, { enabled: false, disabledReason: outcome.disable });
        replaceEndpoint.run(endpointParams(next));
      }
      return true;
    },
  );

  // Inside a caller's transaction `immediate` becomes a savepoint, so this commits with the caller's.
  function recordEventNow(event: NewAlertEvent): string[] | null {
    const takers = allEndpoints
      .all()
      .map(endpointOf)
      .filter((endpoint) => endpointTakes(endpoint, event.type, event.identityId));
    return record.immediate(event, takers);
  }

  return {
    async insertEndpoint(endpoint) {
      insertEndpoint.run(endpointParams(endpoint));
    },
    async findEndpoint(id) {
      const row = endpointById.get(id);
      return row ? endpointOf(row) : null;
    },
    async listEndpoints() {
      return allEndpoints.all().map(endpointOf);
    },
    async saveEndpoint(endpoint) {
      return replaceEndpoint.run(endpointParams(endpoint)).changes > 0;
    },
    async deleteEndpoint(id) {
      return client.transaction(() => {
        client.prepare('DELETE FROM alert_deliveries WHERE endpoint_id = ?').run(id);
        return client.prepare('DELETE FROM alert_endpoints WHERE id = ?').run(id).changes > 0;
      })();
    },
    recordEventNow,
    async recordEvent(event) {
      return recordEventNow(event);
    },
    async recordTest(endpointId, event) {
      record.immediate(event, [{ id: endpointId }]);
      return deliveryIdOf(event.id, 0);
    },
    async claimDue(nowMs, limit, leaseMs) {
      return limit > 0 ? claim.immediate(nowMs, limit, leaseMs) : [];
    },
    async completeAttempt(c, attempt, outcome, at) {
      return complete.immediate(c, attempt, outcome, at);
    },
    async listDeliveries(endpointId, page) {
      return pageOf.all(endpointId, page.beforeSeq ?? Number.MAX_SAFE_INTEGER, page.limit).map(deliveryOf);
    },
    async findDelivery(id) {
      const row = deliveryById.get(id);
      return row ? deliveryOf(row) : null;
    },
    async requeueDelivery(id, nowMs) {
      return requeue.run(nowMs, id).changes > 0;
    },
    async countPending() {
      return pending.get()!.n;
    },
    async listEvents(cursor, limit) {
      const after = /^\d+$/.test(cursor) ? Number(cursor) : 0;
      return eventsAfter
        .all(after, limit)
        .map((row) => ({ cursor: String(row.seq), type: row.type, body: row.body }));
    },
    async pruneFinished(beforeMs, limit) {
      const pruned = pruneDeliveries.run(new Date(beforeMs).toISOString(), limit).changes;
      pruneEvents.run(new Date(Math.min(beforeMs, Date.now() - DEDUPE_RETENTION_MS)).toISOString(), limit);
      return pruned;
    },
    async latestEventCursor() {
      return String(lastEvent.get()?.seq ?? 0);
    },
  };
}
