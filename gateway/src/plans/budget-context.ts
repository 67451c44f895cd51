import { GatewayError } from '../errors.ts';
import type { KeyEvents } from '../model/events.ts';
import type { KeyStore } from '../store/store.ts';

/** The ports the plan and identity services take; `clock` returns epoch milliseconds. */
export interface BudgetServiceDeps {
  store: KeyStore;
  events: KeyEvents;
  clock: () => number;
}

/**
 * Runs a version-checked change: `attempt` reads fresh state and tries one write (false on a
 * version conflict). A conflict is retried once on fresh state; a second is 409 CONFLICT.
 */
export async function withOneRetry<T>(what: string, attempt: () => Promise<T | false>): Promise<T> {
  for (let round = 0; round < 2; round++) {
    const result = await attempt();
    if (result !== false) return result;
  }
  throw new GatewayError('CONFLICT', `${what} was changed concurrently; retry the request.`);
}
