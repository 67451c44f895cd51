import {
  ACTIVITY_ACTIONS,
  type ActivityAction,
  type ActivityEntry,
  type Actor,
  type ApiKey,
  type ApiLogEntry,
  type KeyStatus,
  LATENCY_BUCKETS_MS,
  type LoggedBodies,
  type LoggedBody,
  MAX_LOGGED_BODY_BYTES,
  type SecretRecord,
} from '@keygate/contracts/gateway';
import type { IdempotencyRecord } from '@keygate/contracts/idempotency';
import type { Environment } from '@keygate/identity';
import type { NewAlertEvent } from './alert-store.ts';
import type { CreditsBalance } from './budget.ts';

export type { Environment };
export {
  ACTIVITY_ACTIONS,
  type ActivityAction,
  type ActivityEntry,
  type Actor,
  type ApiKey,
  type ApiLogEntry,
  type KeyStatus,
  LATENCY_BUCKETS_MS,
  type LoggedBodies,
  type LoggedBody,
  MAX_LOGGED_BODY_BYTES,
  type SecretRecord,
};

/**
 * One atomic change to a key: the key's new state, secrets to insert or replace, and the
 * activity entry that records it. `expectedVersion` is null for a create.
 */
export interface KeyChange {
  key: ApiKey;
  expectedVersion: number | null;
  secrets: SecretRecord[];
  activity: ActivityEntry;
  /** A created key's starting credit balance, written with it (SQLite `credit_balances`, Redis `budget:<id>`). */
  creditsBalance?: CreditsBalance;
  /** The Idempotency-Key record of the request making the change, written with it. */
  idempotency?: IdempotencySettle;
  /** The alert events of the change (key-alerts.ts), recorded in the outbox with it. */
  alerts?: NewAlertEvent[];
}

/**
 * The Idempotency-Key record a change writes in its own transaction (SQLite) or script (Redis):
 * `next` (the kept answer) replaces `expected` (the request's lease) under (API key id, key hash).
 * When the lease is no longer `expected` (it lapsed and another request took the key over) the
 * change is refused as on a version conflict: the answer must never be kept for a run that lost it.
 */
export interface IdempotencySettle {
  keyId: string;
  keyHash: string;
  expected: IdempotencyRecord;
  next: IdempotencyRecord;
  /** The caller's clock: a store that expires records itself keeps `next` until `next.expiresAt`. */
  nowMs: number;
}

/** Aggregated traffic of one (key, secret) in one minute; the flush unit of usage. */
export interface UsageBucket {
  keyId: string;
  secretId: string;
  /** Start of the minute, epoch milliseconds. */
  minute: number;
  calls: number;
  errors4xx: number;
  errors5xx: number;
  /** Sum of latencies in ms. */
  latencyMsSum: number;
  /** Counts per latency bucket, aligned with LATENCY_BUCKETS_MS (plus one overflow slot). */
  latencyHistogram: number[];
  /** Newest call time in this bucket, ISO. */
  lastCallAt: string;
}

/** An administrator of the admin interface and the CLI. */
export interface AdminUser {
  /** `adm_…` */
  id: string;
  email: string;
  /** argon2id hash of the password. */
  passwordHash: string;
  createdAt: string;
}

/**
 * A logged-in administrator's session. Stored under the SHA-256 of its cookie token (never the
 * token). Times are epoch ms; `idleExpiresAt` ≤ `expiresAt` always.
 */
export interface AdminSession {
  /** Hex SHA-256 of the cookie token. */
  tokenHash: string;
  userId: string;
  email: string;
  /** Echoed by the interface in `X-CSRF-Token` on every state-changing call. */
  csrfToken: string;
  createdAt: number;
  lastSeenAt: number;
  /** The session ends here unless a request slides it forward. */
  idleExpiresAt: number;
  /** The session ends here however active (absolute timeout). */
  expiresAt: number;
}

/** Failed logins counted for one subject (an email or a client IP) in a fixed window. */
export interface LoginFailureWindow {
  count: number;
  /** When the window (and its count) ends, epoch ms. */
  resetAt: number;
}
