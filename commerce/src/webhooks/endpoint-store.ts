/** Why an endpoint is disabled: by hand, by a 410 Gone answer, or after failing too long. */
export type DisabledReason = 'manual' | 'gone' | 'failing';

/** A stored webhook endpoint, secrets included (they never leave the service except once, when made). */
export interface EndpointRecord {
  id: string;
  url: string;
  description: string;
  /** Subscribed event types; null subscribes to every event type. */
  eventTypes: string[] | null;
  enabled: boolean;
  disabledReason: DisabledReason | null;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: string | null;
  failingSince: string | null;
  createdByKeyId: string;
  createdAt: string;
  updatedAt: string;
}

export type DeliveryStatus = 'pending' | 'delivering' | 'succeeded' | 'failed';

export interface DeliveryRecord {
  /** The `webhook-id` of every attempt. */
  id: string;
  seq: number;
  eventId: string;
  eventType: string;
  endpointId: string;
  status: DeliveryStatus;
  nextAttemptAt: string | null;
  attemptCount: number;
  createdAt: string;
  completedAt: string | null;
}

export interface AttemptRecord {
  startedAt: string;
  finishedAt: string | null;
  webhookTimestamp: number;
  statusCode: number | null;
  durationMs: number | null;
  /** At most 1 KiB of the response body. */
  response: string | null;
  responseTruncated: boolean;
  error: string | null;
}

export type DeliveryWithAttempts = DeliveryRecord & { attempts: AttemptRecord[] };

/** Storage port of the endpoints API (synchronous; null for "not found"). */
export interface EndpointStore {
  /** Stores a new endpoint. */
  insertEndpoint(endpoint: EndpointRecord): void;
  /** The endpoint, or null. */
  findEndpoint(id: string): EndpointRecord | null;
  /** Every endpoint, oldest first. */
  listEndpoints(): EndpointRecord[];
  /** Replaces every stored field of the endpoint. */
  saveEndpoint(endpoint: EndpointRecord): void;
  /** Deletes the endpoint with its deliveries and their attempts. */
  deleteEndpoint(id: string): void;
  /** Up to `limit` deliveries of the endpoint, newest first, with `seq` below `beforeSeq` if given. */
  listDeliveries(
    endpointId: string,
    page: { limit: number; beforeSeq: number | null },
  ): DeliveryWithAttempts[];
  /** The delivery, or null. */
  findDelivery(id: string): DeliveryRecord | null;
  /** Makes a delivery pending again, due at `at`, starting the retry schedule over. */
  requeueDelivery(id: string, at: string): void;
}
