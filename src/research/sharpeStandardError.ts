import { sharpeRatioStandardError } from "../metrics/sharpeRatioStandardError.js";
import { resolveSharpeStats, type SharpeStatsInput } from "./sharpeStats.js";

/**
 * Standard error of an estimated per-period Sharpe ratio (`sharpePerPeriod`), from a stats
 * object or a return series: {@link sharpeRatioStandardError} with
 * `periodsPerYear: 1` and the stats' skewness and excess kurtosis, that is
 * (Mertens 2002; Bailey & López de Prado 2012, σ̂(SR̂) of the PSR)
 *
 * `σ(SR) = sqrt((1 − γ₃·SR + (γ₄ − 1)/4 · SR²) / (n − 1))`, γ₄ = excessKurtosis + 3.
 *
 * Per period, like the Sharpe ratio it belongs to (for an annualised Sharpe
 * call sharpeRatioStandardError with its periodsPerYear). NaN with fewer than
 * 2 returns, a NaN or infinite Sharpe (a constant series) or inconsistent
 * moments.
 * @throws InvalidArgumentError when the stats object is malformed
 * @example sharpeStandardError({ sharpePerPeriod: 0.1, n: 1001, skewness: 0, excessKurtosis: 0 }) // ≈ 0.031702 = sqrt(1.005 / 1000)
 */
export function sharpeStandardError(stats: SharpeStatsInput): number {
  const s = resolveSharpeStats(stats, "sharpeStandardError");
  return sharpeRatioStandardError(s.sharpePerPeriod, { observations: s.n, periodsPerYear: 1, skewness: s.skewness, excessKurtosis: s.excessKurtosis });
}
