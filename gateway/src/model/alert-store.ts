import type { AlertDisabledReason } from '@keygate/contracts/gateway';
import type { DeliveryOutcome } from '@keygate/webhooks';

/** A stored alert endpoint, secrets included (they leave the service once, when made). */
export interface AlertEndpointRecord {
  id: string;
  url: string;
  description: string;
  /** Subscribed event types; null subscribes to every type. */
  eventTypes: string[] | null;
  /** Only events about these identities; null takes every event. */
  identityIds: string[] | null;
  enabled: boolean;
  disabledReason: AlertDisabledReason | null;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: string | null;
  failingSince: string | null;
  createdByKeyId: string;
  createdAt: string;
  updatedAt: string;
}

export type AlertDeliveryStatus = 'pending' | 'delivering' | 'succeeded' | 'failed';

/** One attempt of a delivery (the newest few are kept with it). */
export interface AlertAttempt {
  startedAt: string;
  webhookTimestamp: number;
  statusCode: number | null;
  durationMs: number | null;
  /** At most 1 KiB of the response body. */
  response: string | null;
  error: string | null;
}

export interface AlertDeliveryRecord {
  /** The `webhook-id` of every attempt. */
  id: string;
  seq: number;
  eventId: string;
  eventType: string;
  endpointId: string;
  status: AlertDeliveryStatus;
  nextAttemptAt: string | null;
  attemptCount: number;
  createdAt: string;
  completedAt: string | null;
  attempts: AlertAttempt[];
}

/** An event to record: its envelope and who it is about. */
export interface NewAlertEvent {
  id: string;
  type: string;
  /** Unique over every event ever recorded (kept as long as the event): a second record is a no-op. */
  dedupeKey: string;
  identityId: string | null;
  /** The envelope, byte for byte what every attempt sends. */
  body: string;
  createdAt: string;
  /** Epoch ms: when its deliveries are first due (later than now for a scheduled event). */
  deliverAt: number;
}

/** A delivery one instance took under a lease: no other instance takes it until the lease ends. */
export interface AlertClaim {
  deliveryId: string;
  endpointId: string;
  url: string;
  /** Current secret first, then the previous one while its overlap lasts. */
  secrets: string[];
  body: string;
  eventType: string;
  scheduleStep: number;
  /** Unix seconds: the attempt's webhook-timestamp. */
  webhookTimestamp: number;
  failingSince: string | null;
  /** Fences the completion: a claim whose lease another instance took over completes nothing. */
  leaseToken: string;
}

/** How many attempts a delivery keeps with it (the newest). */
export const KEPT_ATTEMPTS = 10;

/**
 * The alert outbox and its endpoints, shared by every gateway instance (SQLite file or Redis in its
 * admin slot group). Each method is atomic.
 */
export interface AlertStore {
  insertEndpoint(endpoint: AlertEndpointRecord): Promise<void>;
  findEndpoint(id: string): Promise<AlertEndpointRecord | null>;
  /** Every endpoint, oldest first. */
  listEndpoints(): Promise<AlertEndpointRecord[]>;
  /** Replaces the endpoint's stored fields; false when it is gone. */
  saveEndpoint(endpoint: AlertEndpointRecord): Promise<boolean>;
  /** Deletes the endpoint and its deliveries; false when there was none. */
  deleteEndpoint(id: string): Promise<boolean>;
  /**
   * Records an event and one pending delivery (ids from `deliveryIdOf`) for each enabled endpoint
   * that takes it (type and identity filters); null when its dedupe key was recorded before.
   */
  recordEvent(event: NewAlertEvent): Promise<string[] | null>;
  /** Records a test event with one delivery, to this endpoint only; returns the delivery's id. */
  recordTest(endpointId: string, event: NewAlertEvent): Promise<string>;
  /**
   * Claims up to `limit` deliveries of enabled endpoints that are due at `nowMs` (pending, or left
   * delivering by an instance whose lease ended), leasing each until `nowMs + leaseMs`.
   */
  claimDue(nowMs: number, limit: number, leaseMs: number): Promise<AlertClaim[]>;
  /**
   * Stores an attempt and the delivery's and endpoint's next state; false (nothing written) when the
   * claim's lease was taken over.
   */
  completeAttempt(
    claim: AlertClaim,
    attempt: AlertAttempt,
    outcome: DeliveryOutcome,
    at: Date,
  ): Promise<boolean>;
  /** Up to `limit` deliveries of the endpoint, newest first, with `seq` below `beforeSeq` if given. */
  listDeliveries(
    endpointId: string,
    page: { limit: number; beforeSeq: number | null },
  ): Promise<AlertDeliveryRecord[]>;
  findDelivery(id: string): Promise<AlertDeliveryRecord | null>;
  /** Makes a finished or pending delivery pending again, due at `nowMs`, schedule restarted; false when it is delivering. */
  requeueDelivery(id: string, nowMs: number): Promise<boolean>;
  /** Pending deliveries of enabled endpoints (the backlog gauge). */
  countPending(): Promise<number>;
  /**
   * Up to `limit` recorded events (test alerts left out), oldest first, after `cursor` (an opaque
   * position from this method or `latestEventCursor`): what the sandbox's `listen` streams.
   */
  listEvents(cursor: string, limit: number): Promise<RecordedAlertEvent[]>;
  /** The position after the newest recorded event: a stream opened now starts here. */
  latestEventCursor(): Promise<string>;
  /**
   * Deletes up to `limit` finished (succeeded or failed) deliveries completed before `beforeMs`, and
   * on SQLite the events older than the dedupe retention left without deliveries; returns how many
   * deliveries went.
   */
  pruneFinished(beforeMs: number, limit: number): Promise<number>;
}

/** A recorded event as the event stream reads it. */
export interface RecordedAlertEvent {
  cursor: string;
  type: string;
  /** The envelope, as every delivery of it sends it. */
  body: string;
}

/** The id of an event's n-th delivery (the `webhook-id`): derived, so a backend's script can make it. */
export function deliveryIdOf(eventId: string, n: number): string {
  return `msg_${eventId.replace(/^evt_/, '')}${n.toString(36)}`;
}

/** How long an event's dedupe key is kept: longer than the longest quota period. */
export const DEDUPE_RETENTION_MS = 40 * 24 * 3_600_000;

/** True when an endpoint takes an event of this type about this identity. */
export function endpointTakes(
  endpoint: Pick<AlertEndpointRecord, 'enabled' | 'eventTypes' | 'identityIds'>,
  type: string,
  identityId: string | null,
): boolean {
  if (!endpoint.enabled) return false;
  if (endpoint.eventTypes !== null && !endpoint.eventTypes.includes(type)) return false;
  if (endpoint.identityIds === null) return true;
  return identityId !== null && endpoint.identityIds.includes(identityId);
}

/** The secrets that sign at `nowMs`: the current one, then the previous one while its overlap lasts. */
export function signingSecrets(endpoint: AlertEndpointRecord, nowMs: number): string[] {
  const previous =
    endpoint.previousSecret !== null &&
    endpoint.previousSecretExpiresAt !== null &&
    Date.parse(endpoint.previousSecretExpiresAt) > nowMs
      ? [endpoint.previousSecret]
      : [];
  return [endpoint.secret, ...previous];
}
