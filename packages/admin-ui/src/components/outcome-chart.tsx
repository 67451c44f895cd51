import type { AnalyticsSeries, CallOutcome } from '@keygate/contracts/gateway';
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** Each outcome's colour: admitted green, refused by a limit amber/orange, by a check red, failed grey. */
export const OUTCOME_COLOURS: Record<CallOutcome, string> = {
  VALID: '#1a7f37',
  RATE_LIMITED: '#bf8700',
  QUOTA_EXCEEDED: '#d4650c',
  CREDITS_EXHAUSTED: '#a0521d',
  FORBIDDEN_SCOPE: '#cf222e',
  FORBIDDEN_IP: '#a40e26',
  EXPIRED: '#8250df',
  REVOKED: '#6e40c9',
  INVALID_SECRET: '#d1242f',
  UPSTREAM_ERROR: '#57606a',
};

/** The outcomes of a series that had any call (VALID always), in the contract's order. */
export function outcomesShown(series: AnalyticsSeries): CallOutcome[] {
  const seen = new Set<string>(['VALID']);
  for (const point of series.data) {
    for (const [outcome, calls] of Object.entries(point.outcomes)) if (calls) seen.add(outcome);
  }
  return (Object.keys(OUTCOME_COLOURS) as CallOutcome[]).filter(
    (outcome) => seen.has(outcome) && series.data.some((p) => p.outcomes[outcome] !== undefined),
  );
}

/** A time axis label in UTC: `HH:MM` for minutes and hours, `MM-DD` for days. */
function utcLabel(seconds: number, granularity: AnalyticsSeries['granularity']): string {
  const iso = new Date(seconds * 1000).toISOString();
  return granularity === 'day' ? iso.slice(5, 10) : iso.slice(11, 16);
}

/** A uPlot chart of a series: one line per outcome shown, time in UTC, sized to its container. */
export function OutcomeChart(props: { series: AnalyticsSeries; title: string }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const outcomes = outcomesShown(props.series);
    const times = props.series.data.map((p) => Date.parse(p.start) / 1000);
    const data: uPlot.AlignedData = [
      times,
      ...outcomes.map((outcome) => props.series.data.map((p) => p.outcomes[outcome] ?? 0)),
    ];
    const chart = new uPlot(
      {
        title: props.title,
        width: Math.max(320, element.clientWidth || 720),
        height: 260,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        scales: { y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
        axes: [
          { values: (_u, ticks) => ticks.map((t) => utcLabel(t, props.series.granularity)) },
          { label: 'calls', values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) ? `${t}` : '')) },
        ],
        series: [
          { label: 'UTC' },
          ...outcomes.map((outcome) => ({
            label: outcome,
            stroke: OUTCOME_COLOURS[outcome],
            width: 2,
            points: { show: props.series.data.length <= 120 },
          })),
        ],
      },
      data,
      element,
    );
    const resize = () => chart.setSize({ width: Math.max(320, element.clientWidth), height: 260 });
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      chart.destroy();
    };
  }, [props.series, props.title]);
  return <div class="outcome-chart" ref={host} />;
}
