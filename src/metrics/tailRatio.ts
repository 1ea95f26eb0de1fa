import { checkReturns } from "./ReturnsOptions.js";
import { finiteCopy, percentileOf } from "./valueAtRisk.js";

/**
 * Tail ratio: `|95th percentile| / |5th percentile|` of the non-NaN returns
 * (linear interpolation). 0.25 means the bad tail is four times the good
 * one. NaN when no return is left; Infinity when the 5th percentile is 0.
 * Reference: quantopian/empyrical stats.py `tail_ratio`.
 * @example tailRatio([-0.02, 0.01, 0.02]) // ≈ 1.118 (0.019 / 0.017)
 */
export function tailRatio(returns: ArrayLike<number>): number {
  checkReturns(returns, "tailRatio");
  return tailRatioOf(finiteCopy(returns));
}

/** Tail ratio of the values in `work` (no NaN; reordered in place). @internal */
export function tailRatioOf(work: Float64Array): number {
  if (work.length === 0) return Number.NaN;
  return Math.abs(percentileOf(work, 0.95)) / Math.abs(percentileOf(work, 0.05));
}
