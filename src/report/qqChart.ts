import { normalQuantile } from "../metrics/normalQuantile.js";
import { CHART_CONFIG, COLORS } from "./chartTheme.js";
import { renderSvg, type VegaLiteSpec } from "./renderSvg.js";

/** Options of {@link qqChart}. */
export interface QqChartOptions {
  readonly title?: string;
  /** y-axis title ["sample quantile"]. */
  readonly valueTitle?: string;
  readonly width?: number;
  readonly height?: number;
}

/**
 * Normal QQ points of the finite values: the i-th smallest of n against the
 * standard normal quantile at the plotting position (i + 0.5) / n (Hazen),
 * with the line mean + sd · z for reference (sample mean and sd, ddof 1).
 * @internal
 */
export function qqPoints(values: ArrayLike<number>): { z: number; v: number }[] {
  const x = Array.from(values).filter(Number.isFinite).sort((a, b) => a - b);
  const n = x.length;
  return x.map((v, i) => ({ z: normalQuantile((i + 0.5) / n), v }));
}

/**
 * vega-lite spec of a normal QQ plot (alphalens' IC QQ plot): the sorted
 * values against normal quantiles, with the line of a normal of the same
 * mean and standard deviation. Points off the line show fat tails or skew.
 */
export function qqSpec(values: ArrayLike<number>, options: QqChartOptions = {}): VegaLiteSpec {
  const points = qqPoints(values);
  const n = points.length;
  const mean = points.reduce((s, p) => s + p.v, 0) / Math.max(1, n);
  const sd = n > 1 ? Math.sqrt(points.reduce((s, p) => s + (p.v - mean) ** 2, 0) / (n - 1)) : 0;
  const ends = n > 0 ? [points[0]!.z, points[n - 1]!.z].map((z) => ({ z, v: mean + sd * z })) : [];
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    config: CHART_CONFIG,
    width: options.width ?? 300,
    height: options.height ?? 200,
    ...(options.title !== undefined ? { title: options.title } : {}),
    layer: [
      { data: { values: ends }, mark: { type: "line", color: COLORS.neutral, strokeDash: [4, 3] }, encoding: { x: { field: "z", type: "quantitative" }, y: { field: "v", type: "quantitative" } } },
      {
        data: { values: points },
        mark: { type: "point", filled: true, size: 18, color: COLORS.accent },
        encoding: {
          x: { field: "z", type: "quantitative", title: "normal quantile" },
          y: { field: "v", type: "quantitative", title: options.valueTitle ?? "sample quantile", axis: { format: ".2f" } },
        },
      },
    ],
  };
}

/**
 * SVG normal QQ plot.
 * @example const svg = await qqChart(rollingIc(signal, fwd, { time, windowMs }).columns.ic!);
 */
export async function qqChart(values: ArrayLike<number>, options: QqChartOptions = {}): Promise<string> {
  return renderSvg(qqSpec(values, options));
}
