/**
 * Why an argon2 verification was not attempted: the lookup is throttled (a secret without a tag),
 * too many run at once, or the secret's keyed tag did not match (a wrong secret, refused cheaply).
 */
export type VerificationRefusal = 'throttled' | 'busy' | 'tag_mismatch';

export interface VerificationGuardOptions {
  /** Failed verifications of one lookup (plus those still running) after which it is throttled. */
  maxFailuresPerLookup: number;
  /** How long a lookup's failures count, from its first failure (ms). */
  failureWindowMs: number;
  /** argon2 verifications allowed to run at once, across all lookups. */
  maxConcurrent: number;
  /** Lookups whose failures are tracked at most; the oldest is forgotten beyond it. */
  maxTrackedLookups: number;
}

export interface VerificationGuard {
  /** Cheap pre-check: true while the lookup's failure budget for its window is spent. */
  isThrottled(lookup: string, nowMs: number): boolean;
  /** Reserves one verification for the lookup, or says why it may not run now. */
  begin(lookup: string, nowMs: number): VerificationRefusal | null;
  /** Releases a reservation made by `begin`; a mismatch counts as a failure of the lookup. */
  end(lookup: string, ok: boolean, nowMs: number): void;
  /** Verifications running now. */
  readonly active: number;
}

interface LookupState {
  failures: number;
  /** When the failures stop counting (epoch ms); set by the window's first failure. */
  windowEndsAt: number;
  /** Verifications of this lookup running now; they count against the budget until they end. */
  pending: number;
}

/**
 * Bounds the argon2 work wrong secrets can cause: per lookup, at most `maxFailuresPerLookup`
 * verifications fail (or run) per window, after which further unverified attempts are refused
 * without argon2 until the window passes; and at most `maxConcurrent` verifications run at once.
 */
export function createVerificationGuard(options: VerificationGuardOptions): VerificationGuard {
  const lookups = new Map<string, LookupState>();
  let active = 0;

  function stateOf(lookup: string, nowMs: number): LookupState | undefined {
    const state = lookups.get(lookup);
    if (state && state.failures > 0 && state.windowEndsAt <= nowMs) state.failures = 0;
    if (state && state.failures === 0 && state.pending === 0) {
      lookups.delete(lookup);
      return undefined;
    }
    return state;
  }

  function track(lookup: string): LookupState {
    const state: LookupState = { failures: 0, windowEndsAt: 0, pending: 0 };
    lookups.set(lookup, state);
    if (lookups.size > options.maxTrackedLookups) {
      const oldest = lookups.keys().next().value;
      if (oldest !== undefined) lookups.delete(oldest);
    }
    return state;
  }

  const guard: VerificationGuard = {
    isThrottled(lookup, nowMs) {
      const state = stateOf(lookup, nowMs);
      return state !== undefined && state.failures + state.pending >= options.maxFailuresPerLookup;
    },
    begin(lookup, nowMs) {
      if (guard.isThrottled(lookup, nowMs)) return 'throttled';
      if (active >= options.maxConcurrent) return 'busy';
      active++;
      (stateOf(lookup, nowMs) ?? track(lookup)).pending++;
      return null;
    },
    end(lookup, ok, nowMs) {
      active = Math.max(0, active - 1);
      const state = lookups.get(lookup);
      if (!state) return;
      state.pending = Math.max(0, state.pending - 1);
      if (!ok) {
        if (state.failures === 0 || state.windowEndsAt <= nowMs) {
          state.failures = 0;
          state.windowEndsAt = nowMs + options.failureWindowMs;
        }
        state.failures++;
      }
      stateOf(lookup, nowMs);
    },
    get active() {
      return active;
    },
  };
  return guard;
}
