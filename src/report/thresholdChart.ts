import { percentileOf } from "../metrics/valueAtRisk.js";
import { CHART_CONFIG, COLORS } from "./chartTheme.js";
import { renderSvg, type VegaLiteSpec } from "./renderSvg.js";
import { sweepColumn, type SweepTable } from "./sweepHeatmap.js";

/** Options of {@link thresholdChart}. */
export interface ThresholdChartOptions {
  /** Metric on the y axis ["sharpeRatio"]. */
  readonly metric?: string;
  readonly title?: string;
  /** d3-format of the metric [".2f"]. */
  readonly format?: string;
  readonly width?: number;
  readonly height?: number;
}

/** The metric's spread over the weight vectors at one threshold. */
export interface ThresholdRow {
  readonly threshold: number;
  readonly min: number;
  readonly median: number;
  readonly max: number;
  /** Variants at this threshold (finite metric values among them: `finite`). */
  readonly count: number;
  readonly finite: number;
}

/**
 * A sweep's metric per threshold, over the weight vectors tried at it: min, median and max
 * of the finite values (NaN when none), thresholds ascending.
 * @throws InvalidArgumentError when a column is missing
 * @example thresholdRows(sweep)[0] // { threshold: 0.05, min, median, max, count, finite }
 */
export function thresholdRows(table: SweepTable, options: ThresholdChartOptions = {}): ThresholdRow[] {
  const where = "thresholdChart";
  const ts = sweepColumn(table, "threshold", where);
  const ms = sweepColumn(table, options.metric ?? "sharpeRatio", where);
  const groups = new Map<number, { values: number[]; count: number }>();
  for (let i = 0; i < ts.length; i++) {
    const t = ts[i] as number;
    let g = groups.get(t);
    if (g === undefined) groups.set(t, (g = { values: [], count: 0 }));
    g.count++;
    const v = ms[i] as number;
    if (Number.isFinite(v)) g.values.push(v);
  }
  return [...groups.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([threshold, g]) => {
      const m = g.values.length;
      return {
        threshold,
        min: m === 0 ? Number.NaN : Math.min(...g.values),
        median: percentileOf(Float64Array.from(g.values), 0.5),
        max: m === 0 ? Number.NaN : Math.max(...g.values),
        count: g.count,
        finite: m,
      };
    });
}

/**
 * vega-lite spec of a sweep's metric against the label threshold: the median over the
 * weight vectors as a line with points, the min..max range shaded, zero marked.
 * @throws InvalidArgumentError when a column is missing
 */
export function thresholdSpec(table: SweepTable, options: ThresholdChartOptions = {}): VegaLiteSpec {
  const metric = options.metric ?? "sharpeRatio";
  const fmt = options.format ?? ".2f";
  const nul = (v: number): number | null => (Number.isFinite(v) ? v : null);
  const rows = thresholdRows(table, options).map((r) => ({ t: r.threshold, lo: nul(r.min), mid: nul(r.median), hi: nul(r.max) }));
  const x = { field: "t", type: "quantitative" as const, title: "threshold (|composite| to trade)", axis: { format: ".2~f" } };
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    config: CHART_CONFIG,
    width: options.width ?? 420,
    height: options.height ?? 220,
    title: options.title ?? `${metric} by threshold: median over the weight vectors, min to max shaded`,
    data: { values: rows },
    layer: [
      { mark: { type: "area", opacity: 0.18, color: COLORS.accent }, encoding: { x, y: { field: "lo", type: "quantitative", title: metric, axis: { format: fmt } }, y2: { field: "hi" } } },
      { mark: { type: "line", point: true, color: COLORS.accent }, encoding: { x, y: { field: "mid", type: "quantitative" } } },
      { data: { values: [{}] }, mark: { type: "rule", color: "#adb5bd" }, encoding: { y: { datum: 0, type: "quantitative" } } },
    ],
  };
}

/**
 * SVG chart of a sweep's metric against the threshold.
 * @example const svg = await thresholdChart(sweep, { metric: "totalReturn", format: ".1%" });
 */
export async function thresholdChart(table: SweepTable, options: ThresholdChartOptions = {}): Promise<string> {
  return renderSvg(thresholdSpec(table, options));
}
