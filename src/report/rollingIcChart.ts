import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { CHART_CONFIG, CHART_WIDTH, COLORS } from "./chartTheme.js";
import { renderSvg, type VegaLiteSpec } from "./renderSvg.js";

/** Input of {@link rollingIcChart}: the columns of `rollingIc` (window start, IC and its interval). */
export interface RollingIcInput {
  readonly start: ArrayLike<number>;
  readonly ic: ArrayLike<number>;
  readonly ciLow: ArrayLike<number>;
  readonly ciHigh: ArrayLike<number>;
}

/** Options of {@link rollingIcChart}. */
export interface RollingIcChartOptions {
  readonly title?: string;
  readonly width?: number;
  readonly height?: number;
}

/**
 * vega-lite spec of the IC per window over time: a point per window with its
 * confidence interval as a vertical bar, zero and the mean IC marked.
 * @throws InvalidArgumentError when the columns differ in length
 */
export function rollingIcSpec(input: RollingIcInput, options: RollingIcChartOptions = {}): VegaLiteSpec {
  const n = input.start.length;
  if (input.ic.length !== n || input.ciLow.length !== n || input.ciHigh.length !== n) {
    throw new InvalidArgumentError("ic", "rollingIcChart: start, ic, ciLow and ciHigh must have the same length (pass rollingIc(...).columns)");
  }
  const rows: { t: number; v: number; lo: number | null; hi: number | null }[] = [];
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const v = input.ic[i] as number;
    if (!Number.isFinite(v)) continue;
    const lo = input.ciLow[i] as number;
    const hi = input.ciHigh[i] as number;
    rows.push({ t: input.start[i] as number, v, lo: Number.isFinite(lo) ? lo : null, hi: Number.isFinite(hi) ? hi : null });
    sum += v;
  }
  const mean = rows.length > 0 ? sum / rows.length : 0;
  const x = { field: "t", type: "temporal" as const, scale: { type: "utc" as const }, title: null };
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    config: CHART_CONFIG,
    width: options.width ?? CHART_WIDTH,
    height: options.height ?? 180,
    ...(options.title !== undefined ? { title: options.title } : {}),
    data: { values: rows },
    layer: [
      { mark: { type: "rule", color: "#adb5bd" }, encoding: { y: { datum: 0, type: "quantitative" } } },
      { mark: { type: "rule", color: COLORS.up, strokeDash: [4, 3] }, encoding: { y: { datum: mean, type: "quantitative" } } },
      { transform: [{ filter: "datum.lo != null" }], mark: { type: "rule", color: COLORS.accent, opacity: 0.35 }, encoding: { x, y: { field: "lo", type: "quantitative" }, y2: { field: "hi" } } },
      { mark: { type: "point", filled: true, size: 16, color: COLORS.accent }, encoding: { x, y: { field: "v", type: "quantitative", title: "IC (Spearman)", axis: { format: ".2f" } } } },
    ],
  };
}

/**
 * SVG chart of the IC per window with its interval.
 * @example const svg = await rollingIcChart(rollingIc(signal, fwd, { time, windowMs: 30 * 86_400_000 }).columns as never);
 */
export async function rollingIcChart(input: RollingIcInput, options: RollingIcChartOptions = {}): Promise<string> {
  return renderSvg(rollingIcSpec(input, options));
}
