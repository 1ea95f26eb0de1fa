import { annualReturn } from "./annualReturn.js";
import { maxDrawdown } from "./maxDrawdown.js";
import { checkReturns, periodsPerYearOf, type ReturnsOptions } from "./ReturnsOptions.js";

/**
 * Calmar ratio: annual return (CAGR) over the absolute maximum drawdown.
 *
 * Definition (empyrical `calmar_ratio`): `annualReturn / |maxDrawdown|`
 * when the maximum drawdown is negative; NaN when there is no drawdown
 * (including one return and empty input), and NaN instead of an infinite value.
 * Reference: quantopian/empyrical stats.py `calmar_ratio`; Young (1991).
 * @param options.periodsPerYear bars per year (365 daily, 8760 hourly, 525 600 one-minute), or
 * @param options.time bar times (epoch ms) to infer it from; one of the two is required (see {@link AnnualisationOptions})
 * @throws InvalidArgumentError when periodsPerYear or time is missing or bad
 * @example calmarRatio([0.1, -0.1, 0.1], { periodsPerYear: 3 }) // ≈ 0.89 (CAGR 0.089 over a 0.1 drawdown)
 */
export function calmarRatio(returns: ArrayLike<number>, options: ReturnsOptions): number {
  checkReturns(returns, "calmarRatio");
  const ppy = periodsPerYearOf(options, "calmarRatio");
  const mdd = maxDrawdown(returns);
  if (!(mdd < 0)) return Number.NaN;
  const ratio = annualReturn(returns, { periodsPerYear: ppy }) / Math.abs(mdd);
  return Number.isFinite(ratio) ? ratio : Number.NaN;
}
