import { nanMoments } from "./nanMoments.js";
import { checkReturns, periodsPerYearOf, rateReader, type PeriodRate, type ReturnsOptions } from "./ReturnsOptions.js";

/**
 * Annualised Sharpe ratio.
 *
 * Definition (empyrical `sharpe_ratio`): with excess returns
 * `e_i = r_i - riskFree_i` and NaN excess returns dropped,
 * `mean(e) / std(e, ddof = 1) * sqrt(periodsPerYear)`.
 * NaN with fewer than 2 returns (NaN included in that count). Zero
 * variance follows empyrical: a constant positive excess return gives
 * +Infinity, a constant zero gives NaN (0/0).
 * Reference: quantopian/empyrical stats.py `sharpe_ratio`.
 * @param options.riskFree per-period risk-free return: a constant or one value per bar (default 0)
 * @param options.periodsPerYear bars per year (365 daily, 8760 hourly, 525 600 one-minute), or
 * @param options.time bar times (epoch ms) to infer it from; one of the two is required (see {@link AnnualisationOptions})
 * @throws InvalidArgumentError when periodsPerYear or time is missing or bad, or riskFree has the wrong length
 * @example sharpeRatio([0.01, 0.02, 0.03], { periodsPerYear: 252 }) // ≈ 31.75
 */
export function sharpeRatio(
  returns: ArrayLike<number>,
  options: ReturnsOptions & { readonly riskFree?: PeriodRate },
): number {
  checkReturns(returns, "sharpeRatio");
  const ppy = periodsPerYearOf(options, "sharpeRatio");
  const rf = rateReader(options?.riskFree ?? 0, returns.length, "riskFree", "sharpeRatio");
  if (returns.length < 2) return Number.NaN;
  const { mean, std } = nanMoments(returns, 1, options?.riskFree === undefined || options.riskFree === 0 ? undefined : rf);
  return (mean / std) * Math.sqrt(ppy);
}
