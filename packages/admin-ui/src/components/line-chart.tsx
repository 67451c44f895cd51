import { type ChartSeries, chartGeometry, isolatedPoints, niceMax, pathFor } from '../chart.ts';

/** Props of a line chart. */
export interface LineChartProps {
  id: string;
  title: string;
  /** Start of each step, ISO; one per value of every series. */
  times: string[];
  series: ChartSeries[];
  format: (value: number) => string;
}

const G = chartGeometry;

function timeLabel(iso: string, spanMs: number): string {
  const date = new Date(iso);
  const hhmm = date.toISOString().slice(11, 16);
  return spanMs > 2 * 86_400_000 ? date.toISOString().slice(5, 10) : hhmm;
}

function DataTable(props: LineChartProps) {
  const rows = props.times
    .map((at, i) => ({ at, values: props.series.map((s) => s.values[i] ?? null) }))
    .filter((row) => row.values.some((v) => v !== null && v !== 0));
  return (
    <details class="chart-data">
      <summary>
        Data of “{props.title}” ({rows.length} {rows.length === 1 ? 'step' : 'steps'} with traffic)
      </summary>
      <table>
        <thead>
          <tr>
            <th scope="col">Step start (UTC)</th>
            {props.series.map((s) => (
              <th scope="col" key={s.name}>
                {s.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.at}>
              <td>{row.at.replace('T', ' ').slice(0, 16)}</td>
              {row.values.map((v, i) => (
                <td class="num" key={props.series[i]?.name}>
                  {v === null ? '—' : props.format(v)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

/** A small inline-SVG line chart (no library), with a legend and its data as a table. */
export function LineChart(props: LineChartProps) {
  const all = props.series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  const max = niceMax(Math.max(0, ...all));
  const first = props.times[0] ?? '';
  const last = props.times.at(-1) ?? '';
  const spanMs = Date.parse(last) - Date.parse(first);
  const middle = props.times[Math.floor(props.times.length / 2)] ?? '';
  const summary = props.series
    .map((s) => {
      const values = s.values.filter((v): v is number => v !== null);
      return values.length ? `${s.name} peak ${props.format(Math.max(...values))}` : `${s.name} no data`;
    })
    .join('; ');
  const ticks = [0, max / 2, max];
  return (
    <figure class="chart" aria-labelledby={`${props.id}-title`}>
      <figcaption id={`${props.id}-title`}>{props.title}</figcaption>
      <svg viewBox={`0 0 ${G.width} ${G.height}`} role="img" aria-label={`${props.title}: ${summary}`}>
        {ticks.map((tick) => {
          const y = G.top + G.plotHeight - (tick / max) * G.plotHeight;
          return (
            <g key={tick} class="chart-grid">
              <line x1={G.left} x2={G.width - G.right} y1={y} y2={y} />
              <text x={G.left - 6} y={y + 4} text-anchor="end">
                {props.format(tick)}
              </text>
            </g>
          );
        })}
        <g class="chart-axis">
          <text x={G.left} y={G.height - 6} text-anchor="start">
            {first && timeLabel(first, spanMs)}
          </text>
          <text x={G.left + G.plotWidth / 2} y={G.height - 6} text-anchor="middle">
            {middle && timeLabel(middle, spanMs)}
          </text>
          <text x={G.width - G.right} y={G.height - 6} text-anchor="end">
            {last && timeLabel(last, spanMs)}
          </text>
        </g>
        {props.series.map((s, index) => (
          <g key={s.name} class={`series-${index}`}>
            <path class="chart-line" d={pathFor(s.values, max)} fill="none" />
            {isolatedPoints(s.values, max).map((p) => (
              <circle key={`${p.x}`} class="chart-dot" cx={p.x} cy={p.y} r={3} />
            ))}
          </g>
        ))}
      </svg>
      <ul class="legend">
        {props.series.map((s, index) => (
          <li key={s.name}>
            <span class={`swatch series-${index}`} aria-hidden="true" /> {s.name}
          </li>
        ))}
      </ul>
      <DataTable {...props} />
    </figure>
  );
}
