import type { ExpiryReminder } from './lifecycle.ts';
import type { ApiKey, SecretRecord } from './model.ts';
import type { KeyBudget } from './plans.ts';

/** Lead time (days) behind the `expiryReminder` of the public view unless the caller says otherwise. */
export const DEFAULT_VIEW_REMINDER_DAYS = 7;

/** The public view lists at most this many secrets, newest first. */
export const MAX_LISTED_SECRETS = 10;

/** One secret as listed: never its hash or token. */
export interface PublicSecret
  extends Pick<
    SecretRecord,
    'id' | 'prefix' | 'createdAt' | 'closesAt' | 'closedAt' | 'closedReason' | 'callCount' | 'lastCallAt'
  > {
  /** True while the secret authenticates. */
  usable: boolean;
}

/**
 * A key as the API, the CLI and the admin interface show it: the stored fields but `remindersSent`
 * (the budget fields always present: null, [] or null when the key has none), plus derived state.
 */
export interface PublicKey extends Omit<ApiKey, 'remindersSent' | keyof KeyBudget>, KeyBudget {
  /** True once the last valid day is over (the key no longer authenticates). */
  expired: boolean;
  /** Set while the key is within the reminder lead time of its expiry. */
  expiryReminder: ExpiryReminder | null;
  rotation: {
    /** True while an older secret still authenticates beside the current one. */
    inProgress: boolean;
    /** Secrets newest first (at most 10), with call counts and last-call times per secret. */
    secrets: PublicSecret[];
  };
}
