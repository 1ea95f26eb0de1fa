import { checkReturns } from "./ReturnsOptions.js";
import { centralMoments } from "./skewness.js";

/**
 * Excess kurtosis of the returns: `m4 / m2^2 - 3` with population central
 * moments (scipy.stats.kurtosis's default, Fisher, bias=True, which empyrical
 * reports): 0 for a normal distribution, positive for fat tails. NaN returns
 * are skipped (scipy would return NaN). NaN on empty input or zero variance.
 * @example kurtosis([0, 0, 0, 1]) // ≈ -0.667
 */
export function kurtosis(returns: ArrayLike<number>): number {
  checkReturns(returns, "kurtosis");
  const { n, m2, m4 } = centralMoments(returns);
  if (n === 0 || m2 === 0) return Number.NaN;
  return m4 / (m2 * m2) - 3;
}
