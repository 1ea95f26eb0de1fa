import { downsideRisk } from "./downsideRisk.js";
import { nanMoments } from "./nanMoments.js";
import { checkReturns, periodsPerYearOf, rateReader, type PeriodRate, type ReturnsOptions } from "./ReturnsOptions.js";

/**
 * Annualised Sortino ratio.
 *
 * Definition (empyrical `sortino_ratio`):
 * `nanmean(r - required) * periodsPerYear / downsideRisk(r, required)`, i.e.
 * the mean excess return over the downside deviation, both per period, times
 * `sqrt(periodsPerYear)`. NaN with fewer than 2 returns. With no return below
 * the threshold the downside risk is 0 and the ratio is +Infinity (or NaN
 * when the mean excess is also 0), as in empyrical.
 * Reference: quantopian/empyrical stats.py `sortino_ratio`; Sortino & Price (1994).
 * @param options.requiredReturn per-period minimum acceptable return, constant or per bar (default 0)
 * @param options.periodsPerYear bars per year (365 daily, 8760 hourly, 525 600 one-minute), or
 * @param options.time bar times (epoch ms) to infer it from; one of the two is required (see {@link AnnualisationOptions})
 * @throws InvalidArgumentError when periodsPerYear or time is missing or bad
 * @example sortinoRatio([0.02, -0.01], { periodsPerYear: 1 }) // ≈ 0.7071
 */
export function sortinoRatio(
  returns: ArrayLike<number>,
  options: ReturnsOptions & { readonly requiredReturn?: PeriodRate },
): number {
  checkReturns(returns, "sortinoRatio");
  const ppy = periodsPerYearOf(options, "sortinoRatio");
  const requiredReturn = options?.requiredReturn ?? 0;
  const req = rateReader(requiredReturn, returns.length, "requiredReturn", "sortinoRatio");
  if (returns.length < 2) return Number.NaN;
  const mu = nanMoments(returns, 0, requiredReturn === 0 ? undefined : req).mean;
  const dsr = downsideRisk(returns, { periodsPerYear: ppy, requiredReturn });
  return (mu / dsr) * ppy;
}
