import type { CommerceDatabase } from '../db/database.ts';
import type { DeliveryClaim, DeliveryStore } from './delivery-store.ts';
import type { WebhookBacklog } from './webhook-metrics.ts';

interface HeadRow {
  deliveryId: string;
  endpointId: string;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: string | null;
  failingSince: string | null;
  body: string;
  eventType: string;
  scheduleStep: number;
  traceparent: string | null;
}

/** The seq of endpoint `e`'s oldest unfinished delivery: the head of its queue. */
const QUEUE_HEAD = `SELECT q.seq FROM webhook_deliveries q
  WHERE q.endpoint_id = e.id AND q.status IN ('pending', 'delivering') ORDER BY q.seq LIMIT 1`;

/** The earliest attempt time of the enabled endpoints' pending queue heads (null when none waits). */
const NEXT_DUE = `SELECT min(d.next_attempt_at) FROM webhook_endpoints e
  JOIN webhook_deliveries d ON d.seq = (${QUEUE_HEAD})
  WHERE e.enabled = 1 AND d.status = 'pending'`;

/**
 * Each enabled endpoint's queue head when it is pending and due. A head that is `delivering`
 * keeps its endpoint out, so one attempt runs per endpoint and its deliveries go in order.
 */
const DUE_HEADS = `
  SELECT d.id AS deliveryId, e.id AS endpointId, e.url, e.secret, e.previous_secret AS previousSecret,
         e.previous_secret_expires_at AS previousSecretExpiresAt, e.failing_since AS failingSince,
         ev.body, ev.type AS eventType, d.schedule_step AS scheduleStep, ev.traceparent
  FROM webhook_endpoints e
  JOIN webhook_deliveries d ON d.seq = (${QUEUE_HEAD})
  JOIN webhook_events ev ON ev.id = d.event_id
  WHERE e.enabled = 1 AND d.status = 'pending' AND d.next_attempt_at <= ?
  ORDER BY d.next_attempt_at, d.seq
  LIMIT ?`;

/** The worker's store on the commerce database. */
export function createSqliteDeliveryStore(db: CommerceDatabase): DeliveryStore {
  const { sqlite } = db;
  const s = {
    closeOpenAttempts: sqlite.prepare(
      'UPDATE webhook_attempts SET finished_at = ?, error = ? WHERE finished_at IS NULL',
    ),
    requeueDelivering: sqlite.prepare(
      "UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ? WHERE status = 'delivering'",
    ),
    dueHeads: sqlite.prepare<[string, number], HeadRow>(DUE_HEADS),
    markDelivering: sqlite.prepare(
      "UPDATE webhook_deliveries SET status = 'delivering', attempt_count = attempt_count + 1 WHERE id = ? AND status = 'pending'",
    ),
    insertAttempt: sqlite.prepare(
      'INSERT INTO webhook_attempts (delivery_id, started_at, webhook_timestamp) VALUES (?, ?, ?)',
    ),
    finishAttempt: sqlite.prepare(
      `UPDATE webhook_attempts SET finished_at = ?, status_code = ?, duration_ms = ?, response = ?,
         response_truncated = ?, error = ? WHERE id = ?`,
    ),
    updateDelivery: sqlite.prepare(
      `UPDATE webhook_deliveries SET status = ?, next_attempt_at = ?, schedule_step = ?, completed_at = ?
       WHERE id = ? AND status = 'delivering'`,
    ),
    setFailingSince: sqlite.prepare('UPDATE webhook_endpoints SET failing_since = ? WHERE id = ?'),
    disableEndpoint: sqlite.prepare(
      'UPDATE webhook_endpoints SET enabled = 0, disabled_reason = ?, updated_at = ? WHERE id = ? AND enabled = 1',
    ),
    requeueOne: sqlite.prepare(
      "UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ? WHERE id = ? AND status = 'delivering'",
    ),
    // The IN term matches the queue index's condition, so only unfinished deliveries are scanned.
    requeueStale: sqlite.prepare<[string, string]>(
      `UPDATE webhook_deliveries SET status = 'pending'
       WHERE status IN ('pending', 'delivering') AND status = 'delivering'
         AND (SELECT max(a.started_at) FROM webhook_attempts a WHERE a.delivery_id = webhook_deliveries.id) < ?
         AND id NOT IN (SELECT value FROM json_each(?))`,
    ),
    // Deleting an event cascades to its deliveries (by their event index) and their attempts.
    pruneEvents: sqlite.prepare<[string, number]>(
      `DELETE FROM webhook_events WHERE id IN (
         SELECT ev.id FROM webhook_events ev
         WHERE ev.created_at < ?
           AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d
                           WHERE d.event_id = ev.id AND d.status IN ('pending', 'delivering'))
         ORDER BY ev.created_at LIMIT ?)`,
    ),
    nextDue: sqlite.prepare<[], { at: string | null }>(`SELECT (${NEXT_DUE}) AS at`),
  };

  function toClaim(row: HeadRow, attemptId: number, at: Date): DeliveryClaim {
    const overlapOpen = row.previousSecret !== null && (row.previousSecretExpiresAt ?? '') > at.toISOString();
    return {
      deliveryId: row.deliveryId,
      attemptId,
      endpointId: row.endpointId,
      url: row.url,
      secrets: overlapOpen ? [row.secret, row.previousSecret!] : [row.secret],
      body: row.body,
      eventType: row.eventType,
      scheduleStep: row.scheduleStep,
      webhookTimestamp: Math.floor(at.getTime() / 1000),
      failingSince: row.failingSince,
      traceparent: row.traceparent,
    };
  }

  return {
    recoverInterrupted(at) {
      const iso = at.toISOString();
      return sqlite.transaction(() => {
        s.closeOpenAttempts.run(iso, 'interrupted: the process stopped during this attempt');
        return s.requeueDelivering.run(iso).changes;
      })();
    },
    claimDue(at, limit) {
      if (limit <= 0) return [];
      const iso = at.toISOString();
      return sqlite
        .transaction(() =>
          s.dueHeads.all(iso, limit).flatMap((row) => {
            if (s.markDelivering.run(row.deliveryId).changes !== 1) return [];
            const claimTimestamp = Math.floor(at.getTime() / 1000);
            const attempt = s.insertAttempt.run(row.deliveryId, iso, claimTimestamp);
            return [toClaim(row, Number(attempt.lastInsertRowid), at)];
          }),
        )
        .immediate();
    },
    completeAttempt(claim, result, outcome, at) {
      const iso = at.toISOString();
      sqlite
        .transaction(() => {
          s.finishAttempt.run(
            iso,
            result.statusCode,
            result.durationMs,
            result.response,
            result.responseTruncated ? 1 : 0,
            result.error,
            claim.attemptId,
          );
          const isFinal = outcome.status !== 'pending';
          s.updateDelivery.run(
            outcome.status,
            outcome.nextAttemptAt?.toISOString() ?? null,
            outcome.scheduleStep,
            isFinal ? iso : null,
            claim.deliveryId,
          );
          s.setFailingSince.run(outcome.failingSince?.toISOString() ?? null, claim.endpointId);
          if (outcome.disable) s.disableEndpoint.run(outcome.disable, iso, claim.endpointId);
        })
        .immediate();
    },
    releaseAttempt(claim, error, at) {
      const iso = at.toISOString();
      sqlite
        .transaction(() => {
          s.finishAttempt.run(iso, null, null, null, 0, error, claim.attemptId);
          s.requeueOne.run(iso, claim.deliveryId);
        })
        .immediate();
    },
    requeueStale(startedBefore, excludeIds) {
      return s.requeueStale.run(startedBefore.toISOString(), JSON.stringify(excludeIds)).changes;
    },
    nextDueAt() {
      const at = s.nextDue.get()?.at ?? null;
      return at === null ? null : new Date(at);
    },
    pruneFinished(before, limit) {
      // Foreign-key actions are not counted in `changes`: this is the number of events.
      return sqlite.transaction(() => s.pruneEvents.run(before.toISOString(), limit).changes).immediate();
    },
  };
}

/** The delivery backlog and the disabled endpoints, for the metrics gauges (uses the queue index). */
export function readWebhookBacklog(db: CommerceDatabase): WebhookBacklog {
  const row = db.sqlite
    .prepare<[], WebhookBacklog>(
      `SELECT
         (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending') AS pending,
         (SELECT count(*) FROM webhook_deliveries WHERE status = 'delivering') AS delivering,
         (SELECT count(*) FROM webhook_endpoints WHERE enabled = 0) AS disabledEndpoints,
         (${NEXT_DUE}) AS oldestDueAt`,
    )
    .get();
  return row ?? { pending: 0, delivering: 0, disabledEndpoints: 0, oldestDueAt: null };
}
