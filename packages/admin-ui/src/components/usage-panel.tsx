import { useState } from 'preact/hooks';
import { request } from '../api.ts';
import { formatCount, formatMs } from '../format.ts';
import { useLoad } from '../hooks.ts';
import type { UsageSeries } from '../types.ts';
import { SelectField } from './form-fields.tsx';
import { LineChart } from './line-chart.tsx';
import { ProblemView } from './problem-view.tsx';

const RANGES = [
  { id: '1h', label: 'Last hour', ms: 3_600_000 },
  { id: '24h', label: 'Last 24 hours', ms: 86_400_000 },
  { id: '7d', label: 'Last 7 days', ms: 7 * 86_400_000 },
  { id: '30d', label: 'Last 30 days', ms: 30 * 86_400_000 },
] as const;

const count = (value: number) => formatCount(Math.round(value));

/** Calls, errors and latency percentiles of one key over a chosen range, as three charts. */
export function UsagePanel(props: { keyId: string; refresh: number }) {
  const [rangeId, setRangeId] = useState<string>('24h');
  const range = RANGES.find((r) => r.id === rangeId) ?? RANGES[1];
  const series = useLoad(() => {
    const to = Date.now();
    return request<UsageSeries>('GET', `/keys/${props.keyId}/usage/series`, {
      query: { from: new Date(to - range.ms).toISOString(), to: new Date(to).toISOString() },
    });
  }, [props.keyId, rangeId, props.refresh]);
  const points = series.data?.points ?? [];
  const times = points.map((p) => p.at);
  const calls = points.reduce((sum, p) => sum + p.calls, 0);
  const errors = points.reduce((sum, p) => sum + p.errors4xx + p.errors5xx, 0);

  return (
    <div class="usage">
      <div class="toolbar">
        <SelectField
          id="usage-range"
          label="Range"
          value={rangeId}
          options={RANGES.map((r) => r.id)}
          labelOf={(id) => RANGES.find((r) => r.id === id)?.label ?? id}
          onChange={setRangeId}
        />
        <button type="button" class="button-quiet" onClick={() => void series.reload()}>
          Refresh usage
        </button>
        <p class="usage-totals" aria-live="polite">
          {series.data
            ? `${formatCount(calls)} calls, ${formatCount(errors)} errors, ${series.data.stepMinutes}-minute steps`
            : series.loading
              ? 'Loading usage…'
              : ''}
        </p>
      </div>
      <ProblemView problem={series.problem} />
      {series.data ? (
        <div class="charts">
          <LineChart
            id="chart-calls"
            title="Calls per step"
            times={times}
            series={[{ name: 'calls', values: points.map((p) => p.calls) }]}
            format={count}
          />
          <LineChart
            id="chart-errors"
            title="Errors per step"
            times={times}
            series={[
              { name: '4xx', values: points.map((p) => p.errors4xx) },
              { name: '5xx', values: points.map((p) => p.errors5xx) },
            ]}
            format={count}
          />
          <LineChart
            id="chart-latency"
            title="Response time"
            times={times}
            series={(['p50', 'p95', 'p99'] as const).map((q) => ({
              name: q,
              values: points.map((p) => p.latencyMs?.[q] ?? null),
            }))}
            format={formatMs}
          />
        </div>
      ) : null}
    </div>
  );
}
