import { Counter, type Registry } from 'prom-client';
import type { Tracer } from './index.ts';

/** The Prometheus counter of spans the tracer dropped (collector unreachable, queue full), by reason. */
export const DROPPED_SPANS_METRIC = 'keygate_trace_spans_dropped_total';

/** Registers `keygate_trace_spans_dropped_total{reason}`, read from the tracer when scraped. */
export function registerDroppedSpans(registry: Registry, tracer: Tracer): void {
  new Counter({
    name: DROPPED_SPANS_METRIC,
    help: 'Spans not exported: the queue was full (reason="queue_full") or their export failed (the error).',
    labelNames: ['reason'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [reason, count] of tracer.droppedSpans()) this.inc({ reason }, count);
    },
  });
}
