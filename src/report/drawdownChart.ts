import { CHART_CONFIG, CHART_WIDTH } from "./chartTheme.js";
import { renderSvg, type VegaLiteSpec } from "./renderSvg.js";
import { timeSeriesRows, type TimeSeriesInput } from "./timeSeriesRows.js";

/** Options of {@link drawdownChart}. */
export interface DrawdownChartOptions {
  readonly title?: string;
  readonly width?: number;
  readonly height?: number;
  /** Points kept per curve after min-max downsampling [1500]. */
  readonly maxPoints?: number;
}

/**
 * Drawdown of an equity curve: `equity_i / max(equity_0..i) - 1` (0 at a new
 * high, -0.25 a quarter below the running peak). NaN values keep the peak and
 * give NaN. @internal
 */
export function drawdownOf(equity: ArrayLike<number>): Float64Array {
  const out = new Float64Array(equity.length);
  let peak = Number.NaN;
  for (let i = 0; i < equity.length; i++) {
    const v = equity[i] as number;
    if (Number.isNaN(v)) {
      out[i] = Number.NaN;
      continue;
    }
    if (!(v <= peak)) peak = v;
    out[i] = v / peak - 1;
  }
  return out;
}

/**
 * vega-lite spec of underwater curves: the drawdown of each equity curve, in
 * percent below its running peak. Pass equity (not returns).
 * @throws InvalidArgumentError when a series' length differs from `time`'s
 */
export function drawdownSpec(input: TimeSeriesInput, options: DrawdownChartOptions = {}): VegaLiteSpec {
  const series = Object.fromEntries(Object.entries(input.series).map(([k, v]) => [k, drawdownOf(v)]));
  const rows = timeSeriesRows("drawdownChart", { time: input.time, series }, options.maxPoints ?? 1500);
  const single = Object.keys(series).length === 1;
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    config: CHART_CONFIG,
    width: options.width ?? CHART_WIDTH,
    height: options.height ?? 140,
    ...(options.title !== undefined ? { title: options.title } : {}),
    data: { values: rows },
    mark: single ? { type: "area", line: { strokeWidth: 1 }, opacity: 0.35, color: "#d9480f" } : { type: "line" },
    encoding: {
      x: { field: "t", type: "temporal", scale: { type: "utc" }, title: null },
      y: { field: "v", type: "quantitative", title: "drawdown", axis: { format: ".0%" } },
      ...(single ? {} : { color: { field: "s", type: "nominal", sort: Object.keys(series) } }),
    },
  };
}

/**
 * SVG chart of the drawdown ("underwater") curve of one or more equity curves.
 * @example
 * const svg = await drawdownChart({ time: [0, 1, 2], series: { strategy: [100, 80, 120] } });
 * // plots 0, -20%, 0
 */
export async function drawdownChart(input: TimeSeriesInput, options: DrawdownChartOptions = {}): Promise<string> {
  return renderSvg(drawdownSpec(input, options));
}
