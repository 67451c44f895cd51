import type { KeyEvents } from '../model/events.ts';
import type { IdempotencySettle } from '../model/model.ts';
import type { KeyStore } from '../store/store.ts';
import type { ChangeDeps } from './change-runner.ts';
import type { SecretHasher } from './hasher.ts';

/** Settings of the key service; every field has a default. */
export interface KeyServiceConfig {
  /** Rate limit of a new key that does not name one (requests per minute). */
  defaultRateLimitPerMinute: number;
  /** Longest overlap a rotation may give the old secret, in days (Stripe keeps it at most 7). */
  maxOverlapDays: number;
  /** Lead times (days before expiry) at which the sweeper writes an expiry reminder. */
  expiryReminderDays: number[];
}

export const DEFAULT_KEY_SERVICE_CONFIG: Readonly<KeyServiceConfig> = Object.freeze({
  defaultRateLimitPerMinute: 600,
  maxOverlapDays: 7,
  expiryReminderDays: [7, 1],
});

/** The ports the key service takes; `clock` returns epoch milliseconds. */
export interface KeyServiceDeps {
  store: KeyStore;
  hasher: SecretHasher;
  events: KeyEvents;
  clock: () => number;
  config?: Partial<KeyServiceConfig>;
}

/** Deps with the config completed, shared by the service's modules. */
export interface ServiceContext extends ChangeDeps {
  hasher: SecretHasher;
  config: KeyServiceConfig;
}

/** Completes the config with defaults (reminder lead times deduplicated, largest first). */
export function createServiceContext(deps: KeyServiceDeps): ServiceContext {
  const merged = { ...DEFAULT_KEY_SERVICE_CONFIG, ...deps.config };
  const config: KeyServiceConfig = {
    defaultRateLimitPerMinute: merged.defaultRateLimitPerMinute,
    maxOverlapDays: merged.maxOverlapDays,
    expiryReminderDays: [...new Set(merged.expiryReminderDays)].sort((a, b) => b - a),
  };
  return { store: deps.store, events: deps.events, clock: deps.clock, hasher: deps.hasher, config };
}

/**
 * Ties a change to the Idempotency-Key record of the request making it (keys-api/idempotency.ts):
 * the record of the answer the change's result becomes, which the store commits with the change.
 */
export interface AnswerRecorder<R> {
  /** The record to commit with a change whose result, as its caller will see it, is `result`. */
  recordOf(result: R): IdempotencySettle;
  /** Says that this record went in with the change: the HTTP step then sends that answer as it is. */
  committed(settle: IdempotencySettle): void;
}

/**
 * Where a change came from: the source IP of the request (null for the CLI and the system), and
 * the request's Idempotency-Key record to commit with it, when it has one.
 */
export interface RequestContext<R = unknown> {
  sourceIp: string | null;
  answer?: AnswerRecorder<R>;
}
