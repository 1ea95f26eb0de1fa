import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { percentileOf } from "../metrics/valueAtRisk.js";
import { CHART_CONFIG } from "./chartTheme.js";
import { renderSvg, type VegaLiteSpec } from "./renderSvg.js";

/** What the sweep charts read: a sweep's columns (a SweepResult qualifies), `w_<component>`, `threshold` and metric columns. */
export interface SweepTable {
  readonly columns: Readonly<Record<string, ArrayLike<number>>>;
}

/** Options of {@link sweepHeatmap}. */
export interface SweepHeatmapOptions {
  /** Component on the x axis and on the y axis (their `w_<component>` columns). */
  readonly x: string;
  readonly y: string;
  /** Metric coloured ["sharpeRatio"]. */
  readonly metric?: string;
  /** Only variants at this threshold [every threshold]. */
  readonly threshold?: number;
  /**
   * Cell size: weights are rounded to the nearest multiple of `bucket` before grouping, so a
   * fine grid (e.g. 0.02) draws as a readable one (0.1). Default: every distinct weight its own cell.
   */
  readonly bucket?: number;
  /** How the variants sharing a cell (the other weights and thresholds) combine: "mean" (default), "median" or "max". */
  readonly aggregate?: "mean" | "median" | "max";
  readonly title?: string;
  /** d3-format of the metric [".2f"]. */
  readonly format?: string;
  readonly width?: number;
  readonly height?: number;
}

/** One heatmap cell: the two weights, the aggregated metric and how many variants it combines. */
export interface HeatmapCell {
  readonly x: number;
  readonly y: number;
  readonly value: number;
  readonly count: number;
}

/** A column of a sweep table, or an error naming what is there. @internal */
export function sweepColumn(table: SweepTable, name: string, where: string): ArrayLike<number> {
  const col = table?.columns?.[name];
  if (col === undefined) {
    const have = table?.columns !== undefined ? Object.keys(table.columns).join(", ") : "(none)";
    throw new InvalidArgumentError("table", `${where}: the sweep has no ${name} column; columns are ${have}`);
  }
  return col;
}

/**
 * The heatmap's cells: the sweep's variants grouped by their weights on two components
 * (the other weights, and the thresholds unless one is chosen, vary inside a cell), the
 * metric combined per cell by mean, median or max over its finite values (NaN when none).
 * Cells sorted by x, then y.
 * @throws InvalidArgumentError when a column is missing or `aggregate` is unknown
 * @example heatmapCells(sweep, { x: "imbalance", y: "funding" })[0] // { x: 0, y: 0, value: mean Sharpe there, count }
 */
export function heatmapCells(table: SweepTable, options: SweepHeatmapOptions): HeatmapCell[] {
  const where = "sweepHeatmap";
  const xs = sweepColumn(table, `w_${options.x}`, where);
  const ys = sweepColumn(table, `w_${options.y}`, where);
  const ms = sweepColumn(table, options.metric ?? "sharpeRatio", where);
  const ts = options.threshold !== undefined ? sweepColumn(table, "threshold", where) : undefined;
  const how = options.aggregate ?? "mean";
  if (how !== "mean" && how !== "median" && how !== "max") {
    throw new InvalidArgumentError("aggregate", `${where}: aggregate must be "mean", "median" or "max", got ${String(how)}`);
  }
  const bucket = options.bucket;
  if (bucket !== undefined && !(typeof bucket === "number" && bucket > 0 && bucket <= 1)) {
    throw new InvalidArgumentError("bucket", `${where}: bucket must be a cell size in (0, 1], e.g. 0.1, got ${String(bucket)}`);
  }
  const snap = (w: number): number => Math.round((bucket === undefined ? w : Math.round(w / bucket) * bucket) * 1e9) / 1e9;
  const groups = new Map<string, { x: number; y: number; values: number[]; count: number }>();
  for (let i = 0; i < xs.length; i++) {
    if (ts !== undefined && ts[i] !== options.threshold) continue;
    // weights on a grid: round away float noise so 0.30000000000000004 and 0.3 share a cell
    const x = snap(xs[i] as number);
    const y = snap(ys[i] as number);
    const key = `${x},${y}`;
    let g = groups.get(key);
    if (g === undefined) groups.set(key, (g = { x, y, values: [], count: 0 }));
    g.count++;
    const v = ms[i] as number;
    if (Number.isFinite(v)) g.values.push(v);
  }
  const cells = [...groups.values()].map((g) => ({
    x: g.x,
    y: g.y,
    count: g.count,
    value: g.values.length === 0 ? Number.NaN : how === "max" ? Math.max(...g.values) : how === "median" ? percentileOf(Float64Array.from(g.values), 0.5) : g.values.reduce((a, b) => a + b, 0) / g.values.length,
  }));
  return cells.sort((a, b) => a.x - b.x || a.y - b.y);
}

/**
 * vega-lite spec of a sweep heatmap: a metric over the weights of two components,
 * one cell per pair of weights seen in the sweep (see {@link heatmapCells}), coloured
 * on a diverging scale centred on 0 (red below, blue above) and labelled with the value.
 * @throws InvalidArgumentError when a column is missing
 */
export function sweepHeatmapSpec(table: SweepTable, options: SweepHeatmapOptions): VegaLiteSpec {
  const metric = options.metric ?? "sharpeRatio";
  const cells = heatmapCells(table, options);
  const fmt = options.format ?? ".2f";
  const rows = cells.map((c) => ({ x: c.x, y: c.y, v: Number.isFinite(c.value) ? c.value : null, n: c.count }));
  const xAxis = { field: "x", type: "ordinal" as const, title: `weight of ${options.x}`, axis: { labelAngle: 0, format: ".2~f" } };
  const yAxis = { field: "y", type: "ordinal" as const, title: `weight of ${options.y}`, sort: "descending" as const, axis: { format: ".2~f" } };
  const how = options.aggregate ?? "mean";
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    config: CHART_CONFIG,
    width: options.width ?? 360,
    height: options.height ?? 300,
    title: options.title ?? `${metric} (${how} over the other weights${options.threshold !== undefined ? `, threshold ${options.threshold}` : " and thresholds"})`,
    data: { values: rows },
    encoding: { x: xAxis, y: yAxis },
    layer: [
      {
        mark: { type: "rect" },
        encoding: {
          color: { field: "v", type: "quantitative", title: metric, scale: { scheme: "redblue", domainMid: 0 }, legend: { orient: "right", direction: "vertical", format: fmt } },
          tooltip: [
            { field: "x", title: options.x },
            { field: "y", title: options.y },
            { field: "v", title: metric, format: fmt },
            { field: "n", title: "variants" },
          ],
        },
      },
      { mark: { type: "text", fontSize: 9, color: "#212529" }, encoding: { text: { field: "v", type: "quantitative", format: fmt } } },
    ],
  };
}

/**
 * SVG heatmap of a sweep's metric over two components' weights.
 * @example
 * const svg = await sweepHeatmap(await sweepComposite(data, { weights: simplexGrid(COMPONENT_NAMES, 0.1) }), { x: "imbalance", y: "momentum_5m" });
 */
export async function sweepHeatmap(table: SweepTable, options: SweepHeatmapOptions): Promise<string> {
  return renderSvg(sweepHeatmapSpec(table, options));
}
