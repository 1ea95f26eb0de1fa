import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { CHART_CONFIG, COLORS } from "./chartTheme.js";
import { renderSvg, type VegaLiteSpec } from "./renderSvg.js";

/** Input of {@link monthlyHeatmapChart}: the columns of `monthlyReturns` and `yearlyReturns`. */
export interface MonthlyHeatmapInput {
  readonly monthly: { readonly year: ArrayLike<number>; readonly month: ArrayLike<number>; readonly return: ArrayLike<number> };
  readonly yearly: { readonly year: ArrayLike<number>; readonly return: ArrayLike<number> };
}

/** Options of {@link monthlyHeatmapChart}. */
export interface MonthlyHeatmapOptions {
  readonly title?: string;
  /** Width of one cell in px [52]. */
  readonly cellWidth?: number;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * vega-lite spec of the year × month heatmap of returns (quantstats'
 * monthly heatmap): one cell per month with its return printed, coloured on
 * a diverging red–green scale symmetric around 0, and a last "Year" column
 * with the yearly total. Months without bars stay blank.
 * @throws InvalidArgumentError when the columns differ in length
 */
export function monthlyHeatmapSpec(input: MonthlyHeatmapInput, options: MonthlyHeatmapOptions = {}): VegaLiteSpec {
  const m = input.monthly;
  const y = input.yearly;
  if (m.month.length !== m.year.length || m.return.length !== m.year.length || y.return.length !== y.year.length) {
    throw new InvalidArgumentError("monthly", "monthlyHeatmapChart: year, month and return columns must have the same length (pass monthlyReturns(...).columns)");
  }
  const rows: { y: string; m: string; v: number | null }[] = [];
  for (let i = 0; i < m.year.length; i++) {
    const v = m.return[i] as number;
    rows.push({ y: String(m.year[i]), m: MONTHS[(m.month[i] as number) - 1] ?? String(m.month[i]), v: Number.isFinite(v) ? v : null });
  }
  for (let i = 0; i < y.year.length; i++) {
    const v = y.return[i] as number;
    rows.push({ y: String(y.year[i]), m: "Year", v: Number.isFinite(v) ? v : null });
  }
  const years = [...new Set(Array.from(y.year.length > 0 ? y.year : m.year, String))];
  let extent = 0;
  for (let i = 0; i < m.return.length; i++) extent = Math.max(extent, Math.abs(m.return[i] as number) || 0);
  extent = extent > 0 ? extent : 0.01;
  const cell = options.cellWidth ?? 52;
  const x = { field: "m", type: "ordinal" as const, sort: [...MONTHS, "Year"], title: null, axis: { orient: "top" as const, labelAngle: 0 } };
  const yy = { field: "y", type: "ordinal" as const, sort: years, title: null };
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    config: CHART_CONFIG,
    width: cell * 13,
    height: Math.max(24, years.length * 24),
    ...(options.title !== undefined ? { title: options.title } : {}),
    data: { values: rows },
    layer: [
      {
        transform: [{ filter: "datum.m !== 'Year'" }],
        mark: { type: "rect", stroke: "white", strokeWidth: 1 },
        encoding: {
          x,
          y: yy,
          color: { field: "v", type: "quantitative", scale: { domain: [-extent, 0, extent], range: [COLORS.down, "#f8f9fa", COLORS.up], interpolate: "rgb", clamp: true }, legend: null },
        },
      },
      {
        transform: [{ filter: "datum.m === 'Year'" }],
        mark: { type: "rect", stroke: "white", strokeWidth: 1, color: "#e9ecef" },
        encoding: { x, y: yy },
      },
      {
        transform: [{ filter: "datum.v != null" }],
        mark: { type: "text", fontSize: 10 },
        encoding: {
          x,
          y: yy,
          text: { field: "v", type: "quantitative", format: ".1%" },
          color: { condition: { test: "datum.m === 'Year'", value: COLORS.ink }, value: "#343a40" },
        },
      },
    ],
  };
}

/**
 * SVG heatmap of returns by year and month with yearly totals.
 * @example
 * const svg = await monthlyHeatmapChart({ monthly: monthlyReturns(r, { time }).columns, yearly: yearlyReturns(r, { time }).columns } as MonthlyHeatmapInput);
 */
export async function monthlyHeatmapChart(input: MonthlyHeatmapInput, options: MonthlyHeatmapOptions = {}): Promise<string> {
  return renderSvg(monthlyHeatmapSpec(input, options));
}
