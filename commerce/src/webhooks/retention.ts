import type { Logger } from 'pino';
import type { DeliveryStore } from './delivery-store.ts';

/** Events (with their deliveries and attempts) deleted per transaction, so writers wait little. */
export const RETENTION_BATCH = 500;
/** How often finished events past the retention period are looked for. */
export const RETENTION_INTERVAL_MS = 60 * 60 * 1000;

/** Interval timers, injectable so tests decide when a pass runs. */
export interface RetentionTimers {
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

const DEFAULT_TIMERS: RetentionTimers = {
  setInterval: (callback, ms) => setInterval(callback, ms).unref(),
  clearInterval: (handle) => clearInterval(handle as NodeJS.Timeout),
};

export interface WebhookRetention {
  /** Runs a pass now and then one every interval, until stopped. */
  start(): void;
  /**
   * Deletes every event older than the retention period whose deliveries are all finished, a batch
   * per transaction with the event loop free between batches; resolves with how many events went.
   */
  runOnce(): Promise<number>;
  /** Stops the timer; a pass under way ends after its current batch, and the promise waits for it. */
  stop(): Promise<void>;
}

/**
 * Keeps the outbox bounded: an event and its deliveries and attempts are kept for `retentionMs`
 * after the event was made (the deliveries list and resend work on them meanwhile), then deleted
 * once no delivery of the event is still pending or in flight. Unfinished deliveries are never
 * deleted, however old.
 */
export function createWebhookRetention(deps: {
  store: Pick<DeliveryStore, 'pruneFinished'>;
  retentionMs: number;
  clock: () => Date;
  logger: Logger;
  batchSize?: number;
  intervalMs?: number;
  timers?: RetentionTimers;
}): WebhookRetention {
  const { store, retentionMs, clock, logger } = deps;
  const batchSize = deps.batchSize ?? RETENTION_BATCH;
  const timers = deps.timers ?? DEFAULT_TIMERS;
  let handle: unknown = null;
  let running: Promise<number> | null = null;
  let stopped = false;

  async function pass(): Promise<number> {
    const before = new Date(clock().getTime() - retentionMs);
    let deleted = 0;
    for (;;) {
      const batch = store.pruneFinished(before, batchSize);
      deleted += batch;
      if (batch < batchSize || stopped) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (deleted > 0) logger.info({ events: deleted, before: before.toISOString() }, 'pruned webhook events');
    return deleted;
  }

  const retention: WebhookRetention = {
    runOnce() {
      if (stopped) return Promise.resolve(0);
      // One pass at a time: a timer firing during a long pass joins it.
      running ??= pass().finally(() => {
        running = null;
      });
      return running;
    },
    start() {
      if (handle !== null) return;
      const run = () => {
        retention
          .runOnce()
          .catch((error: unknown) => logger.error({ err: error }, 'webhook retention failed'));
      };
      handle = timers.setInterval(run, deps.intervalMs ?? RETENTION_INTERVAL_MS);
      run();
    },
    async stop() {
      stopped = true;
      if (handle !== null) timers.clearInterval(handle);
      handle = null;
      await running?.catch(() => {});
    },
  };
  return retention;
}
