import type { Page } from '@keygate/contracts/gateway';
import type { IdempotencyRecord } from '@keygate/contracts/idempotency';
import type { DeleteOutcome, Identity, IdentityCreation, Plan } from '../model/budget.ts';
import type {
  ActivityAction,
  ActivityEntry,
  AdminSession,
  AdminUser,
  ApiKey,
  ApiLogEntry,
  Environment,
  IdempotencySettle,
  KeyChange,
  KeyStatus,
  LoginFailureWindow,
  SecretRecord,
  UsageBucket,
} from '../model/model.ts';

export type { Page };

export interface KeyFilter {
  environment?: Environment;
  status?: KeyStatus;
}

export interface ActivityFilter {
  keyId?: string;
  environment?: Environment;
  action?: ActivityAction;
  /** ISO instant, inclusive. */
  from?: string;
  /** ISO instant, exclusive. */
  to?: string;
  /** Newest first; at most this many (default 100). */
  limit?: number;
  /** Opaque cursor from a previous page. */
  cursor?: string;
}

export interface LogFilter {
  keyId: string;
  secretId?: string;
  from?: string;
  to?: string;
  limit?: number;
  cursor?: string;
}

/** Usage buckets of one key in a time range, per secret (merged by the domain into totals). */
export interface UsageQuery {
  keyId: string;
  /** Epoch ms, inclusive. */
  from: number;
  /** Epoch ms, exclusive. */
  to: number;
}

/** Which identities a list returns: newest first, keyset-paged. */
export interface IdentityFilter {
  environment?: Environment;
  /** At most this many (default 100, at most 1000). */
  limit?: number;
  /** Opaque cursor from a previous page. */
  cursor?: string;
}

/**
 * Persistence of plans and identities. Every change bumps the row's `version` (the caller sets the
 * new one) and reaches every gateway instance as a key change does: SQLite advances the key
 * generation in the same transaction, Redis publishes `plan`/`identity` on the invalidation channel.
 */
export interface BudgetConfigMethods {
  /** Stores a new plan (and the request's Idempotency-Key record with it); false, writing neither, if its id exists or the record is not the one expected. */
  createPlan(plan: Plan, idempotency?: IdempotencySettle): Promise<boolean>;
  /** The plan with this id, or null (a point read, cheap enough for the request path). */
  getPlan(id: string): Promise<Plan | null>;
  /** Every plan, newest first (plans are few). */
  listPlans(): Promise<Plan[]>;
  /** Replaces a plan if its stored version is still `expectedVersion` (with the record, as createPlan); false otherwise (or if it is gone). */
  updatePlan(plan: Plan, expectedVersion: number, idempotency?: IdempotencySettle): Promise<boolean>;
  /** Deletes a plan unless a key or an identity names it (`in_use`); `missing` when there is none. */
  deletePlan(id: string): Promise<DeleteOutcome>;
  /** Stores a new identity (its starting credit balance, the record as createPlan); false if its id or its externalId in its environment is taken. */
  createIdentity(creation: IdentityCreation, idempotency?: IdempotencySettle): Promise<boolean>;
  /** The identity with this id, or null (a point read, cheap enough for the request path). */
  getIdentity(id: string): Promise<Identity | null>;
  /** The identity of this environment with this external id, or null. */
  findIdentityByExternalId(environment: Environment, externalId: string): Promise<Identity | null>;
  /** Identities matching the filter, newest first, keyset-paged. */
  listIdentities(filter?: IdentityFilter): Promise<Page<Identity>>;
  /** Replaces an identity if its stored version is still `expectedVersion` (with the record, as createPlan); false otherwise (or if it is gone). */
  updateIdentity(
    identity: Identity,
    expectedVersion: number,
    idempotency?: IdempotencySettle,
  ): Promise<boolean>;
  /** Deletes an identity (and its credit balance) unless a key belongs to it (`in_use`); `missing` when there is none. */
  deleteIdentity(id: string): Promise<DeleteOutcome>;
  /** The keys (any status) that belong to an identity, newest first; read from an index, not a scan. */
  listKeysOfIdentity(identityId: string): Promise<ApiKey[]>;
}

/**
 * Persistence of keys, secrets, activity, usage, API logs, admin users, their sessions and
 * failed-login counts. One folder per backend (`sqlite/`, `redis/`), all held to `test/store.contract.ts`.
 * Reads return null for "not found"; methods throw only for I/O failure.
 */
export interface KeyStore extends BudgetConfigMethods {
  /**
   * Applies a key change atomically: key row, secret upserts, the activity entry, a new key's
   * starting credit balance, the request's Idempotency-Key record (`change.idempotency`) and the
   * change's alert events (`change.alerts`, into the outbox; Redis: into the key group's alert
   * inbox, relayed by `relayAlerts`); false, writing none of it, on a version conflict, when the
   * idempotency lease is no longer the one expected, or when the key names a plan or an identity
   * that does not exist (SQLite checks it in the transaction).
   */
  commitChange(change: KeyChange): Promise<boolean>;
  /**
   * Moves the alert events commits parked in a key's inbox into the outbox (recorded once each, by
   * dedupe key), then drops them from the inbox; without `keyId`, every inbox. Returns how many it
   * moved. Only a store whose outbox lives apart from the keys (Redis: the admin slot group) parks
   * them; SQLite writes them to the outbox in the commit itself and has no inbox.
   */
  relayAlerts?(keyId?: string): Promise<number>;
  /** The key with this id, or null. */
  getKey(id: string): Promise<ApiKey | null>;
  /** Keys matching the filter, newest first. */
  listKeys(filter?: KeyFilter): Promise<ApiKey[]>;
  /** Every secret of a key, newest first. */
  listSecrets(keyId: string): Promise<SecretRecord[]>;
  /**
   * Ids (ascending, each once) of the keys the sweep must look at: keys (any status) with a secret whose
   * `closedAt` is null and `closesAt <= nowMs`, and active keys whose expiry end (the end of their
   * `expiresAt` day, UTC) lies in `(nowMs, nowMs + L days]` for some lead L of `reminderLeadDays`
   * missing from their `remindersSent`. Read from indexes kept by `commitChange` (Redis builds them
   * once over keys written before they existed).
   */
  listSweepCandidates(nowMs: number, reminderLeadDays: readonly number[]): Promise<string[]>;
  /**
   * Stores a secret's keyed tag (keys/secret-tag.ts) beside its hash, for a secret stored without
   * one (or with another tag key's): set after its first successful argon2 verification. A secret
   * that no longer exists is left alone. The key id says where the secret lives (its slot group on
   * a Redis Cluster).
   */
  setSecretTag(secret: { id: string; keyId: string }, tag: string): Promise<void>;
  /**
   * True when `findByLookup` answers an unknown lookup from memory (SQLite's lookup index): the
   * negative cache then does not remember unknown lookups, which would only cost it entries.
   */
  readonly lookupsInMemory?: boolean;
  /**
   * The secret with this token lookup id together with its key, or null. SQLite answers at once (no
   * promise), so the key check refuses an unknown lookup within the request's own turn.
   */
  findByLookup(
    lookup: string,
  ): { key: ApiKey; secret: SecretRecord } | null | Promise<{ key: ApiKey; secret: SecretRecord } | null>;
  /** Activity entries matching the filter, newest first. */
  listActivity(filter: ActivityFilter): Promise<Page<ActivityEntry>>;
  /** Appends an activity entry about no key (`keyId` null, e.g. `sandbox.reset`); key changes go through `commitChange`. */
  appendActivity(entry: ActivityEntry): Promise<void>;
  /** Adds usage buckets (summing into existing ones) and advances per-secret and per-key call counters and last-call times. */
  /**
   * A `flushId` makes the call idempotent: a store that writes in several steps records each
   * step under it, so retrying the same buckets with the same id never counts a step twice.
   */
  recordUsage(buckets: UsageBucket[], flushId?: string): Promise<void>;
  /** Usage buckets of a key in a range, oldest first. */
  queryUsage(query: UsageQuery): Promise<UsageBucket[]>;
  /** Deletes usage buckets of every key whose minute starts before `beforeMs` (epoch ms); returns how many went. */
  pruneUsage(beforeMs: number): Promise<number>;
  /** Appends API log lines (with their `bodies` when they have some). */
  appendLogs(entries: ApiLogEntry[]): Promise<void>;
  /** A key's API log, newest first. */
  queryLogs(filter: LogFilter): Promise<Page<ApiLogEntry>>;
  /** Deletes log lines older than `before` (ISO) and returns how many went. */
  pruneLogs(before: string): Promise<number>;
  /** Creates an administrator; false if the email is taken. */
  createAdmin(user: AdminUser): Promise<boolean>;
  /** The administrator with this email (case-insensitive), or null. */
  findAdminByEmail(email: string): Promise<AdminUser | null>;
  /**
   * Stores an admin session. It lives until `min(idleExpiresAt, expiresAt)`, measured from its
   * `lastSeenAt` (so the stores' own expiry follows the caller's clock, not the wall clock).
   */
  createAdminSession(session: AdminSession): Promise<void>;
  /** The session stored under this token hash, or null (also once the store expired it). */
  getAdminSession(tokenHash: string): Promise<AdminSession | null>;
  /** Slides a session's idle expiry (atomically; never recreates a deleted session); false if it is gone. */
  touchAdminSession(tokenHash: string, lastSeenAt: number, idleExpiresAt: number): Promise<boolean>;
  /** Deletes a session (logout); deleting a missing one is no error. */
  deleteAdminSession(tokenHash: string): Promise<void>;
  /** Deletes sessions and login-failure windows that ended at or before `nowMs`; returns how many went. */
  pruneAdminSessions(nowMs: number): Promise<number>;
  /**
   * Counts one failed login for `subject` atomically: a window of `windowMs` opens at the first
   * failure and the count resets when it ends. Returns the count and window end after this failure.
   */
  countLoginFailure(subject: string, windowMs: number, nowMs: number): Promise<LoginFailureWindow>;
  /** The failures counted for `subject` in its current window, or null when none is open. */
  readLoginFailures(subject: string, nowMs: number): Promise<LoginFailureWindow | null>;
  /** Forgets the failures counted for `subject`. */
  clearLoginFailures(subject: string): Promise<void>;
  /**
   * The Idempotency-Key record of (API key id, idempotency key hash), expired or not (a backend may
   * drop expired ones itself); null when there is none. On Redis it lives in the key's slot group.
   */
  readIdempotency(keyId: string, keyHash: string): Promise<IdempotencyRecord | null>;
  /**
   * Atomically replaces the record of (keyId, keyHash) by `next` (null deletes it) if it is still
   * `expected` (null: none); false when another writer changed it first. `nowMs` is the caller's
   * clock: a backend that expires entries itself keeps `next` for `next.expiresAt - nowMs`.
   */
  swapIdempotency(
    keyId: string,
    keyHash: string,
    expected: IdempotencyRecord | null,
    next: IdempotencyRecord | null,
    nowMs: number,
  ): Promise<boolean>;
  /** Deletes records expired at `nowMs`; returns how many went (Redis expires them itself: 0). */
  pruneIdempotency(nowMs: number): Promise<number>;
  /**
   * A cheap marker that moves whenever another process or connection may have changed keys
   * (SQLite: the key generation every key change advances, read only after `PRAGMA data_version`
   * says another connection committed). The auth cache drops its key snapshots when it moves, so a
   * revoke made by the CLI is seen by a running gateway on its very next request.
   */
  changeMarker(): number | Promise<number>;
  /**
   * The key's current version read straight from the shared store (null if it does not exist).
   * Only stores shared by several gateway instances implement it (Redis); the auth pipeline
   * issues it in the same round trip as the rate-limit call so a change made on another
   * instance is seen on the very next request. SQLite relies on `changeMarker` instead.
   */
  readKeyVersion?(keyId: string): Promise<number | null>;
  /** True when the store answers. */
  ping(): Promise<boolean>;
  /** Releases connections and file handles. */
  close(): Promise<void>;
}

/** The store methods behind admin sessions and the login throttle (one implementation per backend). */
export type AdminSessionMethods = Pick<
  KeyStore,
  | 'createAdminSession'
  | 'getAdminSession'
  | 'touchAdminSession'
  | 'deleteAdminSession'
  | 'pruneAdminSessions'
  | 'countLoginFailure'
  | 'readLoginFailures'
  | 'clearLoginFailures'
>;

/** The store methods behind Idempotency-Key records (one implementation per backend). */
export type IdempotencyMethods = Pick<KeyStore, 'readIdempotency' | 'swapIdempotency' | 'pruneIdempotency'>;
