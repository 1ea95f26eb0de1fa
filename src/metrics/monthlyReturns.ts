import { checkTimes } from "./checkTimes.js";
import { metricsTable, type MetricsTable } from "./MetricsTable.js";
import { utcCalendarDate } from "../data/utcCalendarDate.js";

/** Options of {@link monthlyReturns} and {@link yearlyReturns}. */
export interface CalendarReturnsOptions {
  /** Bar times, epoch ms UTC, one per return (the return of bar t is credited to the month of time[t]). */
  readonly time: ArrayLike<number>;
}

/**
 * Returns compounded within each UTC calendar month: the return of bar t
 * counts in the month of `time[t]` (read in UTC, never the machine's zone),
 * and a month's return is `prod(1 + r) - 1` over its bars, NaN returns
 * skipped (a month whose returns are all NaN has return 0). One row per month
 * that has at least one bar, in time order: `year`, `month` (1–12), `return`
 * (decimal). Months without bars are absent (not 0).
 * Reference: pandas `(1 + r).groupby([t.dt.year, t.dt.month]).prod() - 1`
 * (quantstats `monthly_returns`, pyfolio `aggregate_returns(r, "monthly")`).
 * @throws InvalidArgumentError when time is missing, not one per return, not finite or not ascending
 * @example monthlyReturns([0.1, 0.1, -0.5], { time: [Date.UTC(2024, 0, 1), Date.UTC(2024, 0, 31), Date.UTC(2024, 1, 1)] }).columns.return // [0.21, -0.5]
 */
export function monthlyReturns(returns: ArrayLike<number>, options: CalendarReturnsOptions): MetricsTable<{ year: Float64Array; month: Float64Array; return: Float64Array }> {
  const time = checkTimes(returns, options?.time, "monthlyReturns");
  const years: number[] = [];
  const months: number[] = [];
  const values: number[] = [];
  let key = Number.NaN;
  let wealth = 1;
  for (let i = 0; i < returns.length; i++) {
    const { year: y, month: m } = utcCalendarDate(time[i] as number);
    const k = y * 12 + m;
    if (k !== key) {
      if (!Number.isNaN(key)) values.push(wealth - 1);
      key = k;
      wealth = 1;
      years.push(y);
      months.push(m);
    }
    const r = returns[i] as number;
    if (!Number.isNaN(r)) wealth *= 1 + r;
  }
  if (!Number.isNaN(key)) values.push(wealth - 1);
  return metricsTable({ year: Float64Array.from(years), month: Float64Array.from(months), return: Float64Array.from(values) });
}
