import { checkReturns } from "./ReturnsOptions.js";
import { percentileSorted, sortedFinite } from "./valueAtRisk.js";

/**
 * Tail ratio: `|95th percentile| / |5th percentile|` of the non-NaN returns
 * (linear interpolation). 0.25 means the bad tail is four times the good
 * one. NaN when no return is left; Infinity when the 5th percentile is 0.
 * Reference: quantopian/empyrical stats.py `tail_ratio`.
 * @example tailRatio([-0.02, 0.01, 0.02]) // ≈ 1.118 (0.019 / 0.017)
 */
export function tailRatio(returns: ArrayLike<number>): number {
  checkReturns(returns, "tailRatio");
  return tailRatioOfSorted(sortedFinite(returns));
}

/** Tail ratio of values already sorted ascending without NaN. @internal */
export function tailRatioOfSorted(sorted: Float64Array): number {
  if (sorted.length === 0) return Number.NaN;
  return Math.abs(percentileSorted(sorted, 0.95)) / Math.abs(percentileSorted(sorted, 0.05));
}
