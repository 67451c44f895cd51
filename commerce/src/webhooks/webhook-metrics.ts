import { Gauge, type Registry } from 'prom-client';

/** What the webhook gauges read on each scrape. */
export interface WebhookBacklog {
  pending: number;
  delivering: number;
  disabledEndpoints: number;
}

/** Registers gauges of the delivery backlog and of disabled endpoints, read from `readBacklog` on scrape. */
export function registerWebhookMetrics(registry: Registry, readBacklog: () => WebhookBacklog): void {
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
}
