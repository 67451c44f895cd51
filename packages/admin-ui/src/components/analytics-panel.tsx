import type { AnalyticsGranularity, AnalyticsSeries } from '@keygate/contracts/gateway';
import { useState } from 'preact/hooks';
import { request } from '../api.ts';
import { formatCount } from '../format.ts';
import { useLoad } from '../hooks.ts';
import { SelectField } from './form-fields.tsx';
import { OutcomeChart, outcomesShown } from './outcome-chart.tsx';
import { ProblemView } from './problem-view.tsx';

/** The ranges offered, each at the granularity that draws it in at most a few hundred points. */
const RANGES: ReadonlyArray<{ id: string; label: string; ms: number; granularity: AnalyticsGranularity }> = [
  { id: '1h', label: 'Last hour, by minute', ms: 3_600_000, granularity: 'minute' },
  { id: '6h', label: 'Last 6 hours, by minute', ms: 6 * 3_600_000, granularity: 'minute' },
  { id: '24h', label: 'Last 24 hours, by hour', ms: 86_400_000, granularity: 'hour' },
  { id: '7d', label: 'Last 7 days, by hour', ms: 7 * 86_400_000, granularity: 'hour' },
  { id: '30d', label: 'Last 30 days, by day', ms: 30 * 86_400_000, granularity: 'day' },
  { id: '90d', label: 'Last 90 days, by day', ms: 90 * 86_400_000, granularity: 'day' },
];

/** Calls per outcome over the series, in the order the chart shows them. */
function totalsOf(series: AnalyticsSeries): Array<[string, number]> {
  return outcomesShown(series).map((outcome) => [
    outcome,
    series.data.reduce((sum, p) => sum + (p.outcomes[outcome] ?? 0), 0),
  ]);
}

/**
 * A key's or an identity's calls over time by outcome (`subject`: `/keys/<id>` or
 * `/identities/<id>` of the admin API), with a range picker, totals and the numbers as a table.
 */
export function AnalyticsPanel(props: { subject: string; refresh: number }) {
  const [rangeId, setRangeId] = useState('24h');
  const range = RANGES.find((r) => r.id === rangeId) ?? RANGES[2]!;
  const series = useLoad(() => {
    const to = Date.now();
    return request<AnalyticsSeries>('GET', `${props.subject}/analytics`, {
      query: {
        granularity: range.granularity,
        from: new Date(to - range.ms).toISOString(),
        to: new Date(to).toISOString(),
      },
    });
  }, [props.subject, rangeId, props.refresh]);
  const totals = series.data ? totalsOf(series.data) : [];
  const busy = series.data?.data.filter((p) => Object.values(p.outcomes).some((n) => n)) ?? [];
  const shown = series.data ? outcomesShown(series.data) : [];

  return (
    <div class="analytics">
      <div class="toolbar">
        <SelectField
          id="analytics-range"
          label="Outcomes over"
          value={rangeId}
          options={RANGES.map((r) => r.id)}
          labelOf={(id) => RANGES.find((r) => r.id === id)?.label ?? id}
          onChange={setRangeId}
        />
        <button type="button" class="button-quiet" onClick={() => void series.reload()}>
          Refresh outcomes
        </button>
        <p class="analytics-totals" aria-live="polite">
          {series.data
            ? totals.map(([outcome, calls]) => `${outcome} ${formatCount(calls)}`).join(', ')
            : series.loading
              ? 'Loading outcomes…'
              : ''}
        </p>
      </div>
      <ProblemView problem={series.problem} />
      {series.data ? (
        <figure class="chart">
          <OutcomeChart series={series.data} title="Calls by outcome" />
          <details class="chart-data">
            <summary>
              Data of “Calls by outcome” ({busy.length} {busy.length === 1 ? 'bucket' : 'buckets'} with calls)
            </summary>
            <table>
              <thead>
                <tr>
                  <th scope="col">Bucket start (UTC)</th>
                  {shown.map((outcome) => (
                    <th scope="col" key={outcome}>
                      {outcome}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {busy.map((point) => (
                  <tr key={point.start}>
                    <td>{point.start.replace('T', ' ').slice(0, 16)}</td>
                    {shown.map((outcome) => (
                      <td class="num" key={outcome}>
                        {formatCount(point.outcomes[outcome] ?? 0)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        </figure>
      ) : null}
    </div>
  );
}
