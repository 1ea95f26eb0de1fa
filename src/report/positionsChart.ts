import { CHART_CONFIG, CHART_WIDTH, COLORS } from "./chartTheme.js";
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
 * until the next bar changes it): one series as a filled step area, several
 * as one strip per series on a shared time axis and scale.
 * @throws InvalidArgumentError when a series' length differs from `time`'s
 */
export function positionsSpec(input: TimeSeriesInput, options: PositionsChartOptions = {}): VegaLiteSpec {
  const rows = timeSeriesRows("positionsChart", input, options.maxPoints ?? 1500);
  const names = Object.keys(input.series);
  const width = options.width ?? CHART_WIDTH;
  const yTitle = options.yTitle ?? "position (x equity)";
  const x = { field: "t", type: "temporal" as const, scale: { type: "utc" as const }, title: null };
  if (names.length <= 1) {
    return {
      $schema: "https://vega.github.io/schema/vega-lite/v6.json",
      config: CHART_CONFIG,
      width,
      height: options.height ?? 120,
      ...(options.title !== undefined ? { title: options.title } : {}),
      data: { values: rows },
      mark: { type: "area", interpolate: "step-after", line: { strokeWidth: 1, color: COLORS.accent }, color: COLORS.accent, opacity: 0.3 },
      encoding: { x, y: { field: "v", type: "quantitative", title: yTitle } },
    };
  }
  // Several series: one strip per series (overlaid steps are unreadable), sharing the time axis.
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    config: { ...CHART_CONFIG, facet: { spacing: 4 }, header: { labelAngle: 0, labelAlign: "left", labelFontSize: 11, labelColor: "#495057" } },
    ...(options.title !== undefined ? { title: options.title } : {}),
    data: { values: rows },
    facet: { row: { field: "s", type: "nominal", sort: names, title: null } },
    spec: {
      width,
      height: options.height ?? 44,
      mark: { type: "area", interpolate: "step-after", line: { strokeWidth: 1 }, opacity: 0.35 },
      encoding: {
        x,
        // labelFlush: the end labels stay inside their strip (the strips' 0.5 and -0.5 printed over each other)
        y: { field: "v", type: "quantitative", title: null, axis: { tickCount: 3, labelFlush: true } },
        color: { field: "s", type: "nominal", sort: names, legend: null },
      },
    },
    resolve: { scale: { y: "shared" } },
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
