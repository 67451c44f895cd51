import { GatewayError } from '../errors.ts';
import type { LoginFailureWindow } from '../keys/model.ts';
import type { KeyStore } from '../store/store.ts';

export interface LoginThrottleOptions {
  store: Pick<KeyStore, 'countLoginFailure' | 'readLoginFailures' | 'clearLoginFailures'>;
  clock: () => number;
  /** Failures per email, and per client IP, a window allows. */
  maxFailures: number;
  windowMs: number;
}

/**
 * Failed logins counted in the shared store per email and per client IP, each in a fixed window
 * opened by its first failure, so every gateway instance throttles the same account and address.
 */
export interface LoginThrottle {
  /** Throws 429 LOGIN_THROTTLED (with `retryAfter` seconds) while either subject has used up its failures. */
  assertAllowed(email: string, clientIp: string): Promise<void>;
  /** Counts one failure against both subjects. */
  recordFailure(email: string, clientIp: string): Promise<void>;
  /** Forgets the account's failures (the address keeps its count). */
  recordSuccess(email: string): Promise<void>;
}

/** The store subject of an email (compared case-insensitively) and of a client IP. */
export function throttleSubjects(email: string, clientIp: string): { email: string; ip: string } {
  return { email: `email:${email.trim().toLowerCase()}`, ip: `ip:${clientIp}` };
}

/** Seconds until the later of the exhausted windows ends; at least 1. */
function retryAfterSeconds(windows: LoginFailureWindow[], nowMs: number): number {
  const resetAt = Math.max(...windows.map((window) => window.resetAt));
  return Math.max(1, Math.ceil((resetAt - nowMs) / 1000));
}

/** Builds the throttle; the store holds all state. */
export function createLoginThrottle(options: LoginThrottleOptions): LoginThrottle {
  const { store, clock, maxFailures, windowMs } = options;
  return {
    async assertAllowed(email, clientIp) {
      const now = clock();
      const subjects = throttleSubjects(email, clientIp);
      const windows = await Promise.all([
        store.readLoginFailures(subjects.email, now),
        store.readLoginFailures(subjects.ip, now),
      ]);
      const exhausted = windows.filter((w): w is LoginFailureWindow => w !== null && w.count >= maxFailures);
      if (exhausted.length === 0) return;
      const retryAfter = retryAfterSeconds(exhausted, now);
      throw new GatewayError(
        'LOGIN_THROTTLED',
        `Too many failed logins; try again in ${retryAfter} seconds.`,
        { retryAfter },
      );
    },
    async recordFailure(email, clientIp) {
      const now = clock();
      const subjects = throttleSubjects(email, clientIp);
      await Promise.all([
        store.countLoginFailure(subjects.email, windowMs, now),
        store.countLoginFailure(subjects.ip, windowMs, now),
      ]);
    },
    async recordSuccess(email) {
      await store.clearLoginFailures(throttleSubjects(email, '').email);
    },
  };
}
