import { nanMoments } from "./nanMoments.js";
import { checkReturns, periodsPerYearOf, type ReturnsOptions } from "./ReturnsOptions.js";

/**
 * Annualised volatility: the sample standard deviation (ddof = 1) of the
 * non-NaN returns times `sqrt(periodsPerYear)`, as a decimal per year
 * (0.8 = 80 %). NaN with fewer than 2 returns (NaN included in that count,
 * as empyrical does) or fewer than 2 non-NaN returns.
 * Reference: quantopian/empyrical stats.py `annual_volatility` (alpha = 2).
 * @param options.periodsPerYear bars per year (365 daily, 8760 hourly, 525 600 one-minute), or
 * @param options.time bar times (epoch ms) to infer it from; one of the two is required (see {@link AnnualisationOptions})
 * @throws InvalidArgumentError when periodsPerYear or time is missing or bad
 * @example annualVolatility([0.01, -0.01], { periodsPerYear: 365 }) // ≈ 0.2702
 */
export function annualVolatility(returns: ArrayLike<number>, options: ReturnsOptions): number {
  checkReturns(returns, "annualVolatility");
  const ppy = periodsPerYearOf(options, "annualVolatility");
  if (returns.length < 2) return Number.NaN;
  return nanMoments(returns, 1).std * Math.sqrt(ppy);
}
