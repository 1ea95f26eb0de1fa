import { cumReturnsFinal } from "./cumReturns.js";
import { checkReturns, periodsPerYearOf, type ReturnsOptions } from "./ReturnsOptions.js";

/**
 * Compound annual growth rate (CAGR), decimal per year.
 *
 * Definition (empyrical `annual_return` / `cagr`):
 * `(1 + totalReturn) ** (1 / years) - 1` with `years = n / periodsPerYear`,
 * where n counts every period (NaN returns count as 0 return but still take
 * time) and totalReturn compounds the returns. NaN on empty input.
 * Reference: quantopian/empyrical stats.py `annual_return`.
 * @param options.periodsPerYear bars per year (365 daily, 8760 hourly, 525 600 one-minute), or
 * @param options.time bar times (epoch ms) to infer it from; one of the two is required (see {@link AnnualisationOptions})
 * @throws InvalidArgumentError when periodsPerYear or time is missing or bad
 * @example annualReturn([0.01, 0.02], { periodsPerYear: 2 }) // 0.0302 (one year: the total return)
 */
export function annualReturn(returns: ArrayLike<number>, options: ReturnsOptions): number {
  checkReturns(returns, "annualReturn");
  const ppy = periodsPerYearOf(options, "annualReturn");
  const n = returns.length;
  if (n < 1) return Number.NaN;
  const years = n / ppy;
  const ending = cumReturnsFinal(returns, { startingValue: 1 });
  return ending ** (1 / years) - 1;
}
