import { Counter, Gauge, type Registry } from 'prom-client';
import type { AlertStore } from '../model/alert-store.ts';

/** The alert series on a gateway's registry; names are contracts like every metric's. */
export interface AlertMetrics {
  /** One attempt of an alert delivery ended: `succeeded` (2xx) or `failed` (anything else). */
  countAttempt(result: 'succeeded' | 'failed'): void;
}

/**
 * `keygate_alert_attempts_total{result}` (this instance's attempts) and `keygate_alert_backlog`
 * (deliveries of enabled endpoints not yet succeeded or given up, across every instance: read from
 * the store when scraped).
 */
export function registerAlertMetrics(registry: Registry, store: AlertStore): AlertMetrics {
  const attempts = new Counter({
    name: 'keygate_alert_attempts_total',
    help: 'Alert delivery attempts by this instance, by result (succeeded: a 2xx answer).',
    labelNames: ['result'],
    registers: [registry],
  });
  for (const result of ['succeeded', 'failed']) attempts.inc({ result }, 0);
  new Gauge({
    name: 'keygate_alert_backlog',
    help: 'Alert deliveries waiting or in flight, across every instance sharing the store.',
    registers: [registry],
    async collect() {
      try {
        this.set(await store.countPending());
      } catch {
        // The store is away: the scrape keeps the last value rather than failing.
      }
    },
  });
  return { countAttempt: (result) => attempts.inc({ result }) };
}
