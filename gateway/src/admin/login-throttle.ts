import { GatewayError } from '../errors.ts';
import type { LoginFailureWindow } from '../model/model.ts';
import type { KeyStore } from '../store/store.ts';

/** How the login throttle counts: where, per what clock, and its limits. */
export interface LoginThrottleOptions {
  store: Pick<KeyStore, 'countLoginFailure' | 'readLoginFailures' | 'clearLoginFailures'>;
  clock: () => number;
  /** Failures per email, and per client IP, a window allows. */
  maxFailures: number;
  /** Length of the fixed window a subject's first failure opens. */
  windowMs: number;
  /** Password checks this instance runs at once; more answer 429 (argon2 shares the thread pool with key checks). */
  maxConcurrent: number;
}

/** One admitted login attempt: call `finish` exactly once with the outcome. */
export interface LoginAttempt {
  /** Counts a failure against the email and the address, or forgets the email's failures on success. */
  finish(succeeded: boolean): Promise<void>;
}

/**
 * Failed logins counted in the shared store per email and per client IP, each in a fixed window
 * opened by its first failure, so every gateway instance throttles the same account and address.
 * Attempts still running on this instance count as failures until they finish, so a burst of
 * parallel guesses cannot slip past the count; at most `maxConcurrent` run at once.
 */
export interface LoginThrottle {
  /** Admits an attempt, or throws 429 LOGIN_THROTTLED (with `retryAfter` seconds). */
  begin(email: string, clientIp: string): Promise<LoginAttempt>;
}

/** The store subjects of an email (compared case-insensitively) and of a client IP. */
export function throttleSubjects(email: string, clientIp: string): [string, string] {
  return [`email:${email.trim().toLowerCase()}`, `ip:${clientIp}`];
}

function throttled(retryAfter: number, detail: string): GatewayError {
  return new GatewayError('LOGIN_THROTTLED', detail, { retryAfter });
}

/**
 * Seconds until the windows of every subject whose failures (stored, plus attempts in flight up to
 * this one's place) exceed the limit have ended; null when none does. At least 1.
 */
function retryAfterOf(
  windows: Array<LoginFailureWindow | null>,
  places: number[],
  limits: { maxFailures: number; windowMs: number; now: number },
): number | null {
  const { maxFailures, windowMs, now } = limits;
  const resets = windows
    .filter((window, i) => (window?.count ?? 0) + places[i]! > maxFailures)
    .map((window) => window?.resetAt ?? now + windowMs);
  if (resets.length === 0) return null;
  return Math.max(1, Math.ceil((Math.max(...resets) - now) / 1000));
}

/** Builds the throttle; counts live in the store, attempts in flight in this instance. */
export function createLoginThrottle(options: LoginThrottleOptions): LoginThrottle {
  const { store, clock, maxFailures, windowMs } = options;
  const pending = new Map<string, number>();
  let active = 0;
  const adjust = (subject: string, delta: number): number => {
    const next = (pending.get(subject) ?? 0) + delta;
    if (next > 0) pending.set(subject, next);
    else pending.delete(subject);
    return next;
  };
  const release = (subjects: string[]) => {
    active--;
    for (const subject of subjects) adjust(subject, -1);
  };

  return {
    async begin(email, clientIp) {
      if (active >= options.maxConcurrent) {
        throw throttled(1, 'Too many logins in progress; try again in a second.');
      }
      active++;
      const subjects = throttleSubjects(email, clientIp);
      // Reserve before the first await: an attempt's place among those in flight is fixed here.
      const places = subjects.map((subject) => adjust(subject, 1));
      let windows: Array<LoginFailureWindow | null>;
      try {
        const now = clock();
        windows = await Promise.all(subjects.map((subject) => store.readLoginFailures(subject, now)));
      } catch (error) {
        release(subjects);
        throw error;
      }
      const now = clock();
      const retryAfter = retryAfterOf(windows, places, { maxFailures, windowMs, now });
      if (retryAfter !== null) {
        release(subjects);
        throw throttled(retryAfter, `Too many failed logins; try again in ${retryAfter} seconds.`);
      }
      return {
        async finish(succeeded) {
          try {
            const at = clock();
            if (succeeded) await store.clearLoginFailures(subjects[0]!);
            else await Promise.all(subjects.map((subject) => store.countLoginFailure(subject, windowMs, at)));
          } finally {
            release(subjects);
          }
        },
      };
    },
  };
}
