import { monthlyReturns, type CalendarReturnsOptions } from "./monthlyReturns.js";
import { metricsTable, type MetricsTable } from "./MetricsTable.js";

/**
 * Returns compounded within each UTC calendar year: the months of
 * {@link monthlyReturns} compounded, `prod(1 + monthly) - 1` (the same as
 * compounding the year's bars). One row per year with bars: `year`, `return`.
 * Reference: pandas `(1 + r).groupby(t.dt.year).prod() - 1`.
 * @throws InvalidArgumentError as {@link monthlyReturns}
 * @example yearlyReturns([0.1, 0.1], { time: [Date.UTC(2023, 11, 31), Date.UTC(2024, 0, 1)] }).columns.return // [0.1, 0.1]
 */
export function yearlyReturns(returns: ArrayLike<number>, options: CalendarReturnsOptions): MetricsTable<{ year: Float64Array; return: Float64Array }> {
  const monthly = monthlyReturns(returns, options);
  const year = monthly.columns["year"] as Float64Array;
  const ret = monthly.columns["return"] as Float64Array;
  const years: number[] = [];
  const values: number[] = [];
  for (let i = 0; i < monthly.rows; i++) {
    const y = year[i] as number;
    if (years[years.length - 1] !== y) {
      years.push(y);
      values.push(1);
    }
    values[values.length - 1]! *= 1 + (ret[i] as number);
  }
  return metricsTable({ year: Float64Array.from(years), return: Float64Array.from(values, (w) => w - 1) });
}
