import { CHART_CONFIG, CHART_WIDTH } from "./chartTheme.js";
import { renderSvg, type VegaLiteSpec } from "./renderSvg.js";
import { timeSeriesRows, type TimeSeriesInput } from "./timeSeriesRows.js";

/** Options of {@link positionsChart}. */
export interface PositionsChartOptions {
  readonly title?: string;
  /** y-axis title ["position (x equity)"]. */
  readonly yTitle?: string;
  readonly width?: number;
  readonly height?: number;
  /** Points kept per series after min-max downsampling [1500]. */
  readonly maxPoints?: number;
}

/**
 * vega-lite spec of positions over time, drawn as steps (a position holds
 * until the next bar changes it); one line per coin or strategy.
 * @throws InvalidArgumentError when a series' length differs from `time`'s
 */
export function positionsSpec(input: TimeSeriesInput, options: PositionsChartOptions = {}): VegaLiteSpec {
  const rows = timeSeriesRows("positionsChart", input, options.maxPoints ?? 1500);
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    config: CHART_CONFIG,
    width: options.width ?? CHART_WIDTH,
    height: options.height ?? 140,
    ...(options.title !== undefined ? { title: options.title } : {}),
    data: { values: rows },
    mark: { type: "line", interpolate: "step-after", strokeWidth: 1.1 },
    encoding: {
      x: { field: "t", type: "temporal", scale: { type: "utc" }, title: null },
      y: { field: "v", type: "quantitative", title: options.yTitle ?? "position (x equity)" },
      color: { field: "s", type: "nominal", sort: Object.keys(input.series) },
    },
  };
}

/**
 * SVG step chart of positions over time.
 * @example
 * const svg = await positionsChart({ time: result.time, series: { BTC: result.positions } });
 */
export async function positionsChart(input: TimeSeriesInput, options: PositionsChartOptions = {}): Promise<string> {
  return renderSvg(positionsSpec(input, options));
}
