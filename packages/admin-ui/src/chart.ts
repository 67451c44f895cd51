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

/** SVG coordinates of value `i` of `n` on a y scale up to `max`. */
export function pointAt(i: number, n: number, value: number, max: number): { x: number; y: number } {
  return {
    x: left + (n <= 1 ? chartGeometry.plotWidth / 2 : (i / (n - 1)) * chartGeometry.plotWidth),
    y: top + chartGeometry.plotHeight - (value / max) * chartGeometry.plotHeight,
  };
}

/** An SVG path through the values, broken at gaps (a lone point draws nothing: see isolatedPoints). */
export function pathFor(values: ReadonlyArray<number | null>, max: number): string {
  const parts: string[] = [];
  let open = false;
  values.forEach((value, i) => {
    if (value === null) {
      open = false;
      return;
    }
    const { x, y } = pointAt(i, values.length, value, max);
    parts.push(`${open ? 'L' : 'M'}${x.toFixed(1)} ${y.toFixed(1)}`);
    open = true;
  });
  return parts.join(' ');
}

/** Values with a gap (or the edge) on both sides: drawn as dots, since a line needs two points. */
export function isolatedPoints(
  values: ReadonlyArray<number | null>,
  max: number,
): Array<{ x: number; y: number }> {
  const isGap = (i: number) => i < 0 || i >= values.length || values[i] === null;
  return values.flatMap((value, i) =>
    value !== null && isGap(i - 1) && isGap(i + 1) ? [pointAt(i, values.length, value, max)] : [],
  );
}
