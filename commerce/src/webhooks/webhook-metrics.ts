import { Gauge, type Registry } from 'prom-client';

/** What the webhook gauges read on each scrape. */
export interface WebhookBacklog {
  pending: number;
  delivering: number;
  disabledEndpoints: number;
  /** When the longest-waiting due delivery at the head of an enabled endpoint's queue fell due (ISO), or null. */
  oldestDueAt: string | null;
}

/**
 * Registers gauges of the delivery backlog, of how late the worker is and of disabled endpoints,
 * read from `readBacklog` on scrape.
 */
export function registerWebhookMetrics(
  registry: Registry,
  readBacklog: () => WebhookBacklog,
  clock: () => Date,
): void {
  new Gauge({
    name: 'webhook_deliveries_open',
    help: 'Webhook deliveries not yet finished, by status (pending: waiting or retrying; delivering: in flight).',
    labelNames: ['status'],
    registers: [registry],
    collect() {
      const { pending, delivering } = readBacklog();
      this.set({ status: 'pending' }, pending);
      this.set({ status: 'delivering' }, delivering);
    },
  });
  new Gauge({
    name: 'webhook_endpoints_disabled',
    help: 'Webhook endpoints that are disabled (by hand, after 410 Gone, or after failing too long).',
    registers: [registry],
    collect() {
      this.set(readBacklog().disabledEndpoints);
    },
  });
  // Deliveries waiting for a retry are not late: only a due head the worker has not taken is.
  // That separates a stuck or saturated worker (ops' problem) from a receiver that is down.
  new Gauge({
    name: 'webhook_delivery_lag_seconds',
    help: 'How long the longest-waiting due delivery of an enabled endpoint has waited past its attempt time (0 when none is due).',
    registers: [registry],
    collect() {
      const { oldestDueAt } = readBacklog();
      const late = oldestDueAt === null ? 0 : (clock().getTime() - Date.parse(oldestDueAt)) / 1000;
      this.set(Math.max(0, late));
    },
  });
}
