import { autocorrelationPenalty } from "./autocorrelationPenalty.js";
import { checkReturns, periodsPerYearOf, rateReader, type PeriodRate, type ReturnsOptions } from "./ReturnsOptions.js";
import { sharpeRatio } from "./sharpeRatio.js";

/**
 * Annualised Sharpe ratio with an autocorrelation penalty, quantstats' `smart_sharpe`:
 * {@link sharpeRatio} divided by {@link autocorrelationPenalty} of the excess returns,
 * `sqrt(1 + 2 Σ_{k=1}^{n-1} ((n - k) / n) |ρ₁|^k)` with ρ₁ their lag-1 correlation.
 * Autocorrelated returns (smoothed marks, slow signals, overlapping holds) make the
 * standard deviation of one bar understate the risk over many; the penalty is the ratio of
 * the two for an AR(1) with coefficient |ρ₁| (Lo 2002, "The Statistics of Sharpe Ratios").
 * Always <= |Sharpe| in size (the penalty is >= 1); equal when ρ₁ = 0.
 * Units: as sharpeRatio (annualised by sqrt(periodsPerYear)).
 * NaN excess returns are dropped first (the library's rule; quantstats fills them with 0 —
 * the two agree on input without NaN). NaN with fewer than 3 returns or when ρ₁ is undefined
 * (a constant series: quantstats gives NaN there too).
 * Reference: ranaroussi/quantstats stats.py `smart_sharpe` / `sharpe(smart=True)` and
 * `autocorr_penalty`; Lo, A. W. (2002), Financial Analysts Journal 58(4).
 * @param options.riskFree per-period risk-free return: a constant or one value per bar (default 0)
 * @param options.periodsPerYear bars per year, or
 * @param options.time bar times (epoch ms) to infer it from; one of the two is required (see {@link AnnualisationOptions})
 * @throws InvalidArgumentError when periodsPerYear or time is missing or bad, or riskFree has the wrong length
 * @example smartSharpeRatio([0.01, 0.02, 0.03, 0.01], { periodsPerYear: 365 }) // sharpeRatio 34.92 / 1.4361 ≈ 24.32
 */
export function smartSharpeRatio(returns: ArrayLike<number>, options: ReturnsOptions & { readonly riskFree?: PeriodRate }): number {
  checkReturns(returns, "smartSharpeRatio");
  periodsPerYearOf(options, "smartSharpeRatio");
  const rf = rateReader(options?.riskFree ?? 0, returns.length, "riskFree", "smartSharpeRatio");
  const excess: number[] = [];
  for (let i = 0; i < returns.length; i++) {
    const e = (returns[i] as number) - rf(i);
    if (!Number.isNaN(e)) excess.push(e);
  }
  if (excess.length < 3) return Number.NaN;
  return sharpeRatio(returns, options) / autocorrelationPenalty(Float64Array.from(excess));
}
