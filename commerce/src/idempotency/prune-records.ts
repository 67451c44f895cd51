import type { IdempotencyStore } from './idempotency-store.ts';

/** Records deleted per transaction, so writers wait little. */
export const PRUNE_BATCH = 500;
/** How often expired records are looked for. */
export const PRUNE_INTERVAL_MS = 60 * 60 * 1000;

export interface IdempotencyPruner {
  /** Prunes now and then every interval, until stopped. */
  start(): void;
  /** Deletes every record expired now, a batch per transaction with the event loop free between batches. */
  runOnce(): Promise<number>;
  stop(): void;
}

/**
 * Keeps the idempotency table bounded: records live 24 h (their `expiresAt`), a replay never
 * reads an expired one, and this deletes them in batches, as the webhook retention does events.
 */
export function createIdempotencyPruner(deps: {
  store: Pick<IdempotencyStore, 'pruneExpired'>;
  clock: () => Date;
  /** Sees a failed pass (the next interval tries again). */
  onError: (error: unknown) => void;
  intervalMs?: number;
}): IdempotencyPruner {
  let handle: NodeJS.Timeout | null = null;
  async function runOnce(): Promise<number> {
    let deleted = 0;
    for (;;) {
      const batch = deps.store.pruneExpired(deps.clock().getTime(), PRUNE_BATCH);
      deleted += batch;
      if (batch < PRUNE_BATCH) return deleted;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return {
    start() {
      const pass = () => void runOnce().catch(deps.onError);
      pass();
      handle = setInterval(pass, deps.intervalMs ?? PRUNE_INTERVAL_MS).unref();
    },
    runOnce,
    stop() {
      if (handle) clearInterval(handle);
      handle = null;
    },
  };
}
