import { pino } from 'pino';
import type { EventEnvelope, EventPayloads, EventType } from '../../src/webhooks/event-catalogue.ts';
import { sendWebhookOverHttp } from '../../src/webhooks/http-sender.ts';
import {
  DEFAULT_DISABLE_AFTER_MS,
  DEFAULT_MAX_RETRY_AFTER_MS,
  DEFAULT_RETRY_SCHEDULE_SECONDS,
} from '../../src/webhooks/retry-policy.ts';
import { createSqliteDeliveryStore } from '../../src/webhooks/sqlite-delivery-store.ts';
import { type LookupHost, lookupHostWithDns } from '../../src/webhooks/url-policy.ts';
import {
  createWebhookWorker,
  type WebhookWorker,
  type WebhookWorkerOptions,
} from '../../src/webhooks/worker.ts';
import { createTestApp, TEST_NOW, type TestApp, type TestAppOptions } from './app.ts';
import { readEvents, readEventTypes } from './events.ts';

/** A clock that moves only when told to. */
export interface FakeClock {
  (): Date;
  advance(ms: number): void;
}

export function createFakeClock(start = TEST_NOW): FakeClock {
  let now = start.getTime();
  const clock = (() => new Date(now)) as FakeClock;
  clock.advance = (ms) => {
    now += ms;
  };
  return clock;
}

export const DEFAULT_SCHEDULE_MS = DEFAULT_RETRY_SCHEDULE_SECONDS.map((s) => s * 1000);

export interface WebhookHarness extends TestApp {
  clock: FakeClock;
  worker: WebhookWorker;
  /** Runs the worker until nothing is due at the current (fake) time; returns the attempts made. */
  drain(): Promise<number>;
  /** Creates an endpoint through the API (201 asserted); returns its JSON with the secret. */
  createEndpoint(
    body: Record<string, unknown>,
  ): Promise<{ id: string; secret: string; [k: string]: unknown }>;
  /** The recorded event envelopes of one type, oldest first. */
  events<T extends EventType>(type: T): Array<EventEnvelope<T, EventPayloads[T]>>;
  /** Every recorded event's type, oldest first. */
  eventTypes(): string[];
  /** Stops the worker (waiting for attempts in flight), then closes the app. */
  shutdown(): Promise<void>;
  /** Rows of one table (for "nothing changed" snapshots). */
  rows(table: string): unknown[];
}

export interface HarnessOptions extends TestAppOptions {
  worker?: Partial<WebhookWorkerOptions>;
  lookupHost?: LookupHost;
  allowPrivateAddresses?: boolean;
}

/**
 * A seeded app and a webhook worker on one database, both on a fake clock (the worker's jitter is
 * pinned to the middle, so delays are exactly the schedule), with the real HTTP sender.
 */
export async function createWebhookHarness(options: HarnessOptions = {}): Promise<WebhookHarness> {
  const clock = createFakeClock();
  const lookupHost = options.lookupHost ?? lookupHostWithDns;
  const allowPrivateAddresses = options.allowPrivateAddresses ?? true;
  let worker: WebhookWorker | undefined;
  const t = await createTestApp({
    clock,
    ...options,
    webhooks: { allowPrivateAddresses, lookupHost, notify: () => worker?.notify() },
  });
  worker = createWebhookWorker({
    store: createSqliteDeliveryStore(t.db),
    send: sendWebhookOverHttp,
    lookupHost,
    logger: pino({ level: 'silent' }),
    clock,
    random: () => 0.5,
    options: {
      scheduleMs: DEFAULT_SCHEDULE_MS,
      jitterRatio: 0.2,
      disableAfterMs: DEFAULT_DISABLE_AFTER_MS,
      maxRetryAfterMs: DEFAULT_MAX_RETRY_AFTER_MS,
      timeoutMs: 2000,
      concurrency: 4,
      pollIntervalMs: 20,
      allowPrivateAddresses,
      ...options.worker,
    },
  });
  const started = worker;
  return {
    ...t,
    clock,
    worker: started,
    async drain() {
      let total = 0;
      for (let n = await started.runOnce(); n > 0; n = await started.runOnce()) total += n;
      return total;
    },
    async createEndpoint(body) {
      const res = await t.post('/v2/webhooks/endpoints', body);
      if (res.status !== 201) throw new Error(`endpoint not created: ${res.status} ${res.text}`);
      return res.body;
    },
    events: (type) => readEvents(t.db, type),
    eventTypes: () => readEventTypes(t.db),
    rows(table) {
      return t.db.sqlite.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all();
    },
    async shutdown() {
      await started.stop();
      t.close();
    },
  };
}
