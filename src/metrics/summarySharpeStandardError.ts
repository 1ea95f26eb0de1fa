import type { PerformanceSummary } from "./performanceSummary.js";
import { sharpeRatioStandardError } from "./sharpeRatioStandardError.js";

/**
 * Standard error of a summary's annualised Sharpe ratio, adjusted for the
 * skewness and excess kurtosis of its returns (Mertens 2002; Opdyke 2007,
 * "Comparing Sharpe ratios: so where are the p-values?", J. Asset Management 8):
 *
 * `SE = sqrt(P · (1 − γ₃·SR_p + (γ₄ − 1)/4 · SR_p²) / (n − 1))`, SR_p = sharpe / sqrt(P),
 *
 * with γ₃ = `summary.skewness`, γ₄ = `summary.kurtosis` + 3 (population
 * moments), n = `summary.observations` (the non-NaN returns), P = `summary.periodsPerYear`: the σ̂(SR̂)
 * the probabilistic Sharpe ratio divides by (sharpeRatioStandardError and
 * sharpeVarianceTerm hold the rule). On negatively skewed, fat-tailed
 * returns it is larger than Lo's i.i.d. normal error `sqrt((P + sharpe²/2) / (n − 1))`
 * (`sharpeRatioStandardError` without moments), which it equals for normal moments.
 * NaN with fewer than 2 returns, a NaN or infinite Sharpe, or a constant series.
 * @example summarySharpeStandardError(performanceSummary(returns, { periodsPerYear: 365 }))
 */
export function summarySharpeStandardError(
  summary: Pick<PerformanceSummary, "sharpeRatio" | "observations" | "periodsPerYear" | "skewness" | "kurtosis">,
): number {
  if (!(summary.observations > 1)) return Number.NaN;
  return sharpeRatioStandardError(summary.sharpeRatio, {
    observations: summary.observations,
    periodsPerYear: summary.periodsPerYear,
    skewness: summary.skewness,
    excessKurtosis: summary.kurtosis,
  });
}
