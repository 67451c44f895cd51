/** Geometry and path math of the inline-SVG charts. */

/** One line of a chart: a value (or a gap) per step. */
export interface ChartSeries {
  name: string;
  values: Array<number | null>;
}

const width = 640;
const height = 200;
const left = 56;
const right = 12;
const top = 12;
const bottom = 28;

/** The chart's drawing box in SVG units. */
export const chartGeometry = {
  width,
  height,
  left,
  right,
  top,
  bottom,
  plotWidth: width - left - right,
  plotHeight: height - top - bottom,
} as const;

/** The smallest "round" number (1, 2, 2.5, 5 × 10^n) at or above `value`; 1 for zero. */
export function niceMax(value: number): number {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

/** An SVG path through the values, broken at gaps; a lone point becomes a short tick. */
export function pathFor(values: ReadonlyArray<number | null>, max: number): string {
  const n = values.length;
  const x = (i: number) =>
    left + (n <= 1 ? chartGeometry.plotWidth / 2 : (i / (n - 1)) * chartGeometry.plotWidth);
  const y = (v: number) => top + chartGeometry.plotHeight - (v / max) * chartGeometry.plotHeight;
  const parts: string[] = [];
  let open = false;
  values.forEach((value, i) => {
    if (value === null) {
      open = false;
      return;
    }
    const point = `${x(i).toFixed(1)} ${y(value).toFixed(1)}`;
    const isolated = !open && (values[i + 1] ?? null) === null;
    parts.push(isolated ? `M${point} h0.01` : `${open ? 'L' : 'M'}${point}`);
    open = true;
  });
  return parts.join(' ');
}
