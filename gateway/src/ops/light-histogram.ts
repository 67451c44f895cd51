import type { Metric, MetricObjectWithValues, MetricValueWithName, Registry } from 'prom-client';

/** One labelled series: cumulative counts are computed only when scraped. */
interface Series {
  labels: Record<string, string>;
  /** Observations per bucket (not cumulative); the last slot holds those above every bound. */
  counts: number[];
  sum: number;
  count: number;
}

/** A histogram whose series are found by their label values in order. */
export interface LightHistogram {
  /** Counts `value` in the series of `labelValues` (in the order of the histogram's label names). */
  observe(labelValues: readonly string[], value: number): void;
}

/**
 * A Prometheus histogram for the data plane, registered in a prom-client registry as a custom
 * metric (its `get()`; the exposition is prom-client's, as for its own Histogram): an observation
 * is a Map lookup and two additions. prom-client's `Histogram.observe(labels, value)` validates and
 * sorts the labels object and hashes it into a string on every call, and the data plane observes
 * every proxied request.
 */
export function createLightHistogram(options: {
  name: string;
  help: string;
  labelNames: readonly string[];
  buckets: readonly number[];
  registers: Registry[];
}): LightHistogram {
  const { name, labelNames } = options;
  const bounds = [...options.buckets].sort((a, b) => a - b);
  const series = new Map<string, Series>();

  function seriesOf(labelValues: readonly string[]): Series {
    const id = labelValues.join('\u0000');
    let found = series.get(id);
    if (!found) {
      const labels: Record<string, string> = {};
      labelNames.forEach((label, i) => {
        labels[label] = labelValues[i] ?? '';
      });
      found = { labels, counts: new Array<number>(bounds.length + 1).fill(0), sum: 0, count: 0 };
      series.set(id, found);
    }
    return found;
  }

  const metric = {
    name,
    help: options.help,
    type: 'histogram',
    aggregator: 'sum',
    async get(): Promise<MetricObjectWithValues<MetricValueWithName<string>>> {
      const values: MetricValueWithName<string>[] = [];
      for (const { labels, counts, sum, count } of series.values()) {
        let cumulative = 0;
        bounds.forEach((bound, i) => {
          cumulative += counts[i]!;
          values.push({ metricName: `${name}_bucket`, labels: { le: bound, ...labels }, value: cumulative });
        });
        values.push({ metricName: `${name}_bucket`, labels: { le: '+Inf', ...labels }, value: count });
        values.push({ metricName: `${name}_sum`, labels, value: sum });
        values.push({ metricName: `${name}_count`, labels, value: count });
      }
      const exposed = { name, help: options.help, type: 'histogram', aggregator: 'sum', values };
      return exposed as unknown as MetricObjectWithValues<MetricValueWithName<string>>;
    },
    reset() {
      series.clear();
    },
  };
  for (const registry of options.registers) registry.registerMetric(metric as unknown as Metric);

  return {
    observe(labelValues, value) {
      const found = seriesOf(labelValues);
      let slot = 0;
      while (slot < bounds.length && value > bounds[slot]!) slot++;
      found.counts[slot]!++;
      found.sum += value;
      found.count++;
    },
  };
}
