import { resolveSharpeStats, sharpeVarianceTerm, type SharpeStatsInput } from "./sharpeStats.js";

/**
 * Standard error of an estimated per-period Sharpe ratio under non-normal
 * returns (Mertens 2002; Bailey & López de Prado 2012, "The Sharpe ratio
 * efficient frontier", eq. for σ̂(SR̂)):
 *
 * `σ(SR) = sqrt((1 − γ₃·SR + (γ₄ − 1)/4 · SR²) / (n − 1))`, γ₄ = excessKurtosis + 3.
 *
 * Per period, like the Sharpe ratio it belongs to (multiply by
 * sqrt(periodsPerYear) to go with an annualised Sharpe). NaN with fewer than
 * 2 returns, a NaN or infinite Sharpe (a constant series) or inconsistent
 * moments.
 * @throws InvalidArgumentError when the stats object is malformed
 * @example sharpeStandardError({ sharpe: 0.1, n: 1001, skewness: 0, excessKurtosis: 0 }) // ≈ 0.031702 = sqrt(1.005 / 1000)
 */
export function sharpeStandardError(stats: SharpeStatsInput): number {
  const s = resolveSharpeStats(stats, "sharpeStandardError");
  if (s.n < 2) return Number.NaN;
  return Math.sqrt(sharpeVarianceTerm(s) / (s.n - 1));
}
