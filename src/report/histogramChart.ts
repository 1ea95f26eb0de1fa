import { CHART_CONFIG, COLORS } from "./chartTheme.js";
import { renderSvg, type VegaLiteSpec } from "./renderSvg.js";

/** Options of {@link histogramChart}. */
export interface HistogramChartOptions {
  readonly title?: string;
  /** x-axis title ["value"]. */
  readonly valueTitle?: string;
  /** d3-format of the x axis [".1%"]. */
  readonly format?: string;
  /** Vertical rules with a label, e.g. VaR and CVaR. */
  readonly markers?: readonly { readonly label: string; readonly value: number }[];
  /** Most bins [60]. */
  readonly maxBins?: number;
  readonly width?: number;
  readonly height?: number;
}

/**
 * vega-lite spec of a histogram of the finite values, with labelled vertical
 * markers (e.g. the return distribution with VaR and CVaR, the IC histogram
 * with its mean). NaN values are left out.
 */
export function histogramSpec(values: ArrayLike<number>, options: HistogramChartOptions = {}): VegaLiteSpec {
  const rows: { v: number }[] = [];
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    if (Number.isFinite(v)) rows.push({ v });
  }
  // one line of labels per marker, left to right, so two markers close together (VaR and CVaR) do not print over each other
  const markers = (options.markers ?? [])
    .filter((m) => Number.isFinite(m.value))
    .sort((a, b) => a.value - b.value)
    .map((m, i) => ({ x: m.value, label: m.label, line: i * 12 }));
  const fmt = options.format ?? ".1%";
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    config: CHART_CONFIG,
    width: options.width ?? 420,
    height: options.height ?? 200,
    ...(options.title !== undefined ? { title: options.title } : {}),
    layer: [
      {
        data: { values: rows },
        mark: { type: "bar", color: COLORS.accent, opacity: 0.8 },
        encoding: {
          x: { field: "v", type: "quantitative", bin: { maxbins: options.maxBins ?? 60 }, title: options.valueTitle ?? "value", axis: { format: fmt } },
          y: { aggregate: "count", type: "quantitative", title: "count" },
        },
      },
      {
        data: { values: markers },
        mark: { type: "rule", color: COLORS.down, strokeDash: [4, 3] },
        encoding: { x: { field: "x", type: "quantitative" } },
      },
      {
        data: { values: markers },
        mark: { type: "text", align: "left", dx: 3, baseline: "top", fontSize: 10, color: COLORS.down },
        encoding: { x: { field: "x", type: "quantitative" }, y: { field: "line", type: "quantitative", scale: null }, text: { field: "label" } },
      },
    ],
  };
}

/**
 * SVG histogram with labelled markers.
 * @example const svg = await histogramChart(returns, { markers: [{ label: "VaR 5%", value: valueAtRisk(returns) }] });
 */
export async function histogramChart(values: ArrayLike<number>, options: HistogramChartOptions = {}): Promise<string> {
  return renderSvg(histogramSpec(values, options));
}
