import { CHART_CONFIG, CHART_HEIGHT, CHART_WIDTH } from "./chartTheme.js";
import { renderSvg, type VegaLiteSpec } from "./renderSvg.js";
import { timeSeriesRows, type TimeSeriesInput } from "./timeSeriesRows.js";

/** Options of {@link equityChart}. */
export interface EquityChartOptions {
  readonly title?: string;
  /** Rebase every curve to 1 at its first finite value ("growth of 1") [false]. */
  readonly normalize?: boolean;
  /** Logarithmic y axis, spanning the data, labelled with plain numbers (1,000 or 0.95) [false]. */
  readonly logScale?: boolean;
  /** y-axis title ["equity"]. */
  readonly yTitle?: string;
  readonly width?: number;
  readonly height?: number;
  /** Points kept per curve after min-max downsampling [1500]. */
  readonly maxPoints?: number;
}

function rebase(values: ArrayLike<number>): Float64Array {
  const out = Float64Array.from(values);
  const first = out.find((v) => Number.isFinite(v) && v !== 0);
  if (first === undefined) return out.fill(Number.NaN);
  for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) / first;
  return out;
}

/**
 * vega-lite spec of equity curves over time (one line per series, e.g. the
 * strategy and buy-and-hold), x in UTC.
 * @throws InvalidArgumentError when a series' length differs from `time`'s
 */
export function equitySpec(input: TimeSeriesInput, options: EquityChartOptions = {}): VegaLiteSpec {
  const series =
    options.normalize === true ? Object.fromEntries(Object.entries(input.series).map(([k, v]) => [k, rebase(v)])) : input.series;
  const rows = timeSeriesRows("equityChart", { time: input.time, series }, options.maxPoints ?? 1500);
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    config: CHART_CONFIG,
    width: options.width ?? CHART_WIDTH,
    height: options.height ?? CHART_HEIGHT,
    ...(options.title !== undefined ? { title: options.title } : {}),
    data: { values: rows },
    mark: { type: "line", interpolate: "linear" },
    encoding: {
      x: { field: "t", type: "temporal", scale: { type: "utc" }, title: null },
      y: {
        field: "v",
        type: "quantitative",
        title: options.yTitle ?? (options.normalize === true ? "growth of 1" : "equity"),
        // A log axis spans the data, not the decades around it (curves near 1 would lie flat), and
        // shows plain numbers (SI prefixes read 0.9 as "900m").
        scale: options.logScale === true ? { type: "log", nice: false } : { zero: false },
        axis: { format: options.normalize === true ? ".2f" : options.logScale === true ? ",.3~r" : "~s" },
      },
      color: { field: "s", type: "nominal", sort: Object.keys(input.series) },
    },
  };
}

/**
 * SVG chart of equity curves over time.
 * @example
 * const svg = await equityChart({ time: [0, 86_400_000], series: { strategy: [100, 103] } });
 * svg.startsWith("<svg") // true
 */
export async function equityChart(input: TimeSeriesInput, options: EquityChartOptions = {}): Promise<string> {
  return renderSvg(equitySpec(input, options));
}
