import { CHART_CONFIG, CHART_WIDTH } from "./chartTheme.js";
import { renderSvg, type VegaLiteSpec } from "./renderSvg.js";
import { timeSeriesRows } from "./timeSeriesRows.js";

/** Input of {@link rollingMetricsChart}: bar times and, per panel (e.g. "Sharpe"), one curve per window (e.g. "30d"). */
export interface RollingMetricsInput {
  readonly time: ArrayLike<number>;
  readonly panels: Readonly<Record<string, Readonly<Record<string, ArrayLike<number>>>>>;
}

/** Options of {@link rollingMetricsChart}. */
export interface RollingMetricsChartOptions {
  readonly title?: string;
  /** d3-format per panel's y axis, e.g. { volatility: ".0%" }. */
  readonly formats?: Readonly<Record<string, string>>;
  readonly width?: number;
  /** Height of each panel [110]. */
  readonly panelHeight?: number;
}

/**
 * vega-lite spec of rolling metrics stacked in panels sharing the time axis
 * (rolling Sharpe, volatility, beta; one line per window length).
 * @throws InvalidArgumentError when a curve's length differs from `time`'s
 */
export function rollingMetricsSpec(input: RollingMetricsInput, options: RollingMetricsChartOptions = {}): VegaLiteSpec {
  const panels = Object.entries(input.panels).map(([name, series]) => {
    const rows = timeSeriesRows("rollingMetricsChart", { time: input.time, series }, 1000);
    return {
      width: options.width ?? CHART_WIDTH,
      height: options.panelHeight ?? 110,
      data: { values: rows },
      layer: [
        { mark: { type: "rule" as const, color: "#adb5bd" }, encoding: { y: { datum: 0, type: "quantitative" as const } } },
        {
          mark: { type: "line" as const },
          encoding: {
            x: { field: "t", type: "temporal" as const, scale: { type: "utc" as const }, title: null },
            y: { field: "v", type: "quantitative" as const, title: name, axis: { format: options.formats?.[name] ?? ".2~f" } },
            color: { field: "s", type: "nominal" as const, sort: Object.keys(series), title: null },
          },
        },
      ],
    };
  });
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    config: CHART_CONFIG,
    ...(options.title !== undefined ? { title: options.title } : {}),
    vconcat: panels,
    resolve: { scale: { color: "shared" } },
  };
}

/**
 * SVG of rolling metrics in stacked panels.
 * @example
 * const m = rollingMetrics(r.returns, { time: r.time, windowMs: 30 * 86_400_000, benchmark });
 * const svg = await rollingMetricsChart({ time: r.time, panels: { Sharpe: { "30d": m.columns.sharpe! } } });
 */
export async function rollingMetricsChart(input: RollingMetricsInput, options: RollingMetricsChartOptions = {}): Promise<string> {
  return renderSvg(rollingMetricsSpec(input, options));
}
