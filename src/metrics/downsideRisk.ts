import { checkReturns, periodsPerYearOf, rateReader, type PeriodRate, type ReturnsOptions } from "./ReturnsOptions.js";

/**
 * Annualised downside deviation below a required return.
 *
 * Definition (empyrical `downside_risk`):
 * `sqrt(nanmean(min(0, r_i - required_i)^2)) * sqrt(periodsPerYear)`;
 * NaN differences are skipped (not counted in the mean). Decimal per year.
 * NaN on empty input; 0 for one return (or none below the threshold).
 * Reference: quantopian/empyrical stats.py `downside_risk`; Sortino & Price (1994).
 * @param options.requiredReturn per-period minimum acceptable return, constant or per bar (default 0)
 * @param options.periodsPerYear bars per year (365 daily, 8760 hourly, 525 600 one-minute), or
 * @param options.time bar times (epoch ms) to infer it from; one of the two is required (see {@link AnnualisationOptions})
 * @throws InvalidArgumentError when periodsPerYear or time is missing or bad, or requiredReturn has the wrong length
 * @example downsideRisk([0.01, -0.01], { periodsPerYear: 1 }) // ≈ 0.00707
 */
export function downsideRisk(
  returns: ArrayLike<number>,
  options: ReturnsOptions & { readonly requiredReturn?: PeriodRate },
): number {
  checkReturns(returns, "downsideRisk");
  const ppy = periodsPerYearOf(options, "downsideRisk");
  const req = rateReader(options?.requiredReturn ?? 0, returns.length, "requiredReturn", "downsideRisk");
  const n = returns.length;
  if (n < 1) return Number.NaN;
  let sum = 0;
  let count = 0;
  const constant = typeof options?.requiredReturn === "number" || options?.requiredReturn === undefined ? (options?.requiredReturn ?? 0) : undefined;
  for (let i = 0; i < n; i++) {
    const d = (returns[i] as number) - (constant ?? req(i));
    if (Number.isNaN(d)) continue;
    count++;
    if (d < 0) sum += d * d;
  }
  if (count === 0) return Number.NaN;
  return Math.sqrt(sum / count) * Math.sqrt(ppy);
}
