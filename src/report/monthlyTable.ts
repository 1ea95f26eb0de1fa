import type { DataFrame } from "../data/danfo.js";
import { toDataFrame } from "../data/toDataFrame.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { monthlyReturns } from "../metrics/monthlyReturns.js";
import { yearlyReturns } from "../metrics/yearlyReturns.js";
import { withDisplay, type Displayable } from "./display.js";
import { formatPercent } from "./formatPercent.js";
import { htmlTable } from "./htmlTable.js";
import { textTable } from "./textTable.js";

/** The month columns of a {@link MonthlyTable}, January first. */
export const MONTH_NAMES = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;

/** Options of {@link monthlyTable}. */
export interface MonthlyTableOptions {
  /** Bar times, epoch ms UTC, when the input is a bare return series. */
  readonly time?: ArrayLike<number>;
}

/**
 * Monthly returns pivoted years × months with the year's total, as quantstats'
 * `monthly_returns` (its `EOY` column is `year` here). Also what
 * `monthlyHeatmapChart` draws: pass it as it is.
 */
export interface MonthlyTable extends Displayable {
  /** Calendar years with bars, ascending (the rows). */
  readonly years: readonly number[];
  /** `returns[r][m]`: the return of month m + 1 of `years[r]`, decimal; NaN for a month without bars. */
  readonly returns: readonly Float64Array[];
  /** The return of each year, compounded from its months. */
  readonly year: Float64Array;
  /** The long form `monthlyReturns` gives (one row per month with bars), for the heatmap. */
  readonly monthly: { readonly year: Float64Array; readonly month: Float64Array; readonly return: Float64Array };
  /** The year totals in long form (`yearlyReturns`), for the heatmap. */
  readonly yearly: { readonly year: Float64Array; readonly return: Float64Array };
  /** The pivot as a DataFrame: `year`, `Jan` … `Dec`, `Year` (decimals, NaN where a month has no bars). */
  toDataFrame(): DataFrame;
}

/**
 * Monthly returns as a years × months table with each year's total
 * (quantstats `monthly_returns(returns, eoy=True, compounded=True)`): a month's
 * return compounds its bars, `prod(1 + r) - 1`, in UTC calendar months (see
 * `monthlyReturns`, the one rule it pivots); the year column compounds the
 * months (`yearlyReturns`). A month without bars is NaN (blank), not 0.
 * Takes a backtest result (its `time` and `returns`) or a return series with
 * `{ time }`. Shows itself as a table (`show(monthlyTable(bt))`, percentages,
 * coloured by sign in HTML) and draws with `monthlyHeatmapChart(monthlyTable(bt))`.
 * Reference: pandas `(1 + r).groupby([t.dt.year, t.dt.month]).prod().sub(1).unstack()`.
 * @throws InvalidArgumentError when times are missing, not one per return or not ascending
 * @example monthlyTable([0.1, 0.1, -0.5], { time: [Date.UTC(2024, 0, 1), Date.UTC(2024, 0, 31), Date.UTC(2024, 1, 1)] }).returns[0] // [0.21, -0.5, NaN, …]
 */
export function monthlyTable(
  input: { readonly time: ArrayLike<number>; readonly returns: ArrayLike<number> } | ArrayLike<number>,
  options: MonthlyTableOptions = {},
): MonthlyTable {
  const isResult = typeof input === "object" && input !== null && "returns" in input && "time" in input;
  const returns = isResult ? input.returns : input;
  const time = isResult ? input.time : options.time;
  if (time === undefined) {
    throw new InvalidArgumentError("time", "monthlyTable: a bare return series needs its bar times: monthlyTable(returns, { time })");
  }
  const m = monthlyReturns(returns, { time }).columns;
  const y = yearlyReturns(returns, { time }).columns;
  const monthly = { year: m["year"] as Float64Array, month: m["month"] as Float64Array, return: m["return"] as Float64Array };
  const yearly = { year: y["year"] as Float64Array, return: y["return"] as Float64Array };
  const years = Array.from(yearly.year);
  const grid = years.map(() => new Float64Array(12).fill(Number.NaN));
  for (let i = 0; i < monthly.year.length; i++) {
    const row = years.indexOf(monthly.year[i] as number);
    (grid[row] as Float64Array)[(monthly.month[i] as number) - 1] = monthly.return[i] as number;
  }
  const columns = (): Record<string, Float64Array> => {
    const out: Record<string, Float64Array> = { year: Float64Array.from(years) };
    MONTH_NAMES.forEach((name, j) => (out[name] = Float64Array.from(grid, (r) => r[j] as number)));
    out["Year"] = yearly.return;
    return out;
  };
  const table = { years, returns: grid, year: yearly.return, monthly, yearly, toDataFrame: () => toDataFrame(columns()) };
  return withDisplay(table, () => {
    const cols = columns();
    const format: Record<string, (v: number) => string> = { year: String };
    for (const name of [...MONTH_NAMES, "Year"]) format[name] = (v) => (Number.isNaN(v) ? "" : formatPercent(v, 1));
    const signed = [...MONTH_NAMES, "Year"];
    return {
      text: textTable(cols, { format }),
      html: htmlTable(cols, { format, signed, caption: "Monthly returns (UTC months; Year compounds them)", maxRows: 200 }),
    };
  });
}
