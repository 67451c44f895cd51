import { type Attributes, createNoopMeter, type Meter, type MeterProvider } from '@opentelemetry/api';

/** The SDK's own count of the spans its processor finished, failed ones with `error.type`. */
const PROCESSED = 'otel.sdk.processor.span.processed';

/**
 * A meter provider for the span processor's self-observability that keeps one thing: how many spans
 * it dropped (queue full) or failed to export, by `error.type`. The services report it as a
 * Prometheus counter; no metrics SDK is loaded for it.
 */
export function createDropCounter(): { meterProvider: MeterProvider; counts: Map<string, number> } {
  const counts = new Map<string, number>();
  const noop = createNoopMeter();
  const meter: Meter = Object.create(noop);
  meter.createCounter = (name, options) => {
    if (name !== PROCESSED) return noop.createCounter(name, options);
    return {
      add(value: number, attributes?: Attributes) {
        const reason = attributes?.['error.type'];
        if (typeof reason !== 'string') return;
        counts.set(reason, (counts.get(reason) ?? 0) + value);
      },
    };
  };
  return { meterProvider: { getMeter: () => meter }, counts };
}
