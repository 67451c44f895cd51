import type { KeyEvents } from '../model/events.ts';
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

/** Where a change came from: the source IP of the request (null for the CLI and the system). */
export interface RequestContext {
  sourceIp: string | null;
}
