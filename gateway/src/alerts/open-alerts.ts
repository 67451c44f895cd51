import {
  DEFAULT_DISABLE_AFTER_MS,
  DEFAULT_JITTER_RATIO,
  DEFAULT_MAX_RETRY_AFTER_MS,
} from '@keygate/contracts/commerce';
import { lookupHostWithDns, sendWebhookOverHttp } from '@keygate/webhooks';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { GatewayConfig } from '../config.ts';
import type { GatewayBackend } from '../store/backend.ts';
import type { KeyStore } from '../store/store.ts';
import { registerAlertMetrics } from './alert-metrics.ts';
import { createAlertOutbox } from './alert-outbox.ts';
import { type AlertService, createAlertService } from './alert-service.ts';
import { createAlertStreamHandler } from './alert-stream.ts';
import { type AlertWorker, createAlertWorker } from './alert-worker.ts';
import { type BudgetAlerts, createBudgetAlerts } from './budget-alerts.ts';
import { withKeyAlerts } from './key-alerts.ts';

/** Everything alerts add to one gateway instance. */
export interface OpenedAlerts {
  service: AlertService;
  budget: BudgetAlerts;
  /** `GET /v2/auth/alert-events:stream`. */
  stream: RequestHandler;
  worker: AlertWorker;
  /** The backend's store, recording an alert for every committed key change (for the key service). */
  keyStore: KeyStore;
}

/** Builds the alert outbox, worker (not started), endpoints API and hooks on the backend's store. */
export function openAlerts(
  config: Readonly<GatewayConfig>,
  backend: GatewayBackend,
  options: { logger: Logger; clock: () => number; registry?: Registry },
): OpenedAlerts {
  const { logger, clock } = options;
  const store = backend.alerts;
  const metrics = options.registry ? registerAlertMetrics(options.registry, store) : null;
  const worker = createAlertWorker({
    store,
    send: sendWebhookOverHttp,
    options: {
      scheduleMs: config.alerts.retryScheduleMs,
      jitterRatio: DEFAULT_JITTER_RATIO,
      disableAfterMs: DEFAULT_DISABLE_AFTER_MS,
      maxRetryAfterMs: DEFAULT_MAX_RETRY_AFTER_MS,
      timeoutMs: config.alerts.timeoutMs,
      concurrency: config.alerts.concurrency,
      pollIntervalMs: config.alerts.pollIntervalMs,
      allowPrivateAddresses: config.alerts.allowPrivateAddresses,
    },
    logger,
    lookupHost: lookupHostWithDns,
    clock,
    onAttempt: (result) => metrics?.countAttempt(result),
    relay: backend.store.relayAlerts?.bind(backend.store),
  });
  const outbox = createAlertOutbox({ store, clock, notify: () => worker.notify() });
  return {
    worker,
    budget: createBudgetAlerts({ outbox, logger }),
    stream: createAlertStreamHandler({ store }),
    keyStore: withKeyAlerts(backend.store, outbox, logger),
    service: createAlertService({
      store,
      outbox,
      clock,
      allowPrivateAddresses: config.alerts.allowPrivateAddresses,
      lookupHost: lookupHostWithDns,
      notify: () => worker.notify(),
    }),
  };
}
