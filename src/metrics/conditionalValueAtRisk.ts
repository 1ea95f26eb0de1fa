import { checkReturns } from "./ReturnsOptions.js";
import { cutoffOf, finiteCopy, selectKth, type TailOptions } from "./valueAtRisk.js";

/**
 * Conditional value at risk (expected shortfall): the mean return of the
 * worst periods, those at or below the `cutoff` quantile.
 *
 * Definition (empyrical `conditional_value_at_risk`): with the n non-NaN
 * returns sorted ascending and `k = floor((n - 1) * cutoff)`, the mean of the
 * k + 1 smallest returns (equal to the mean of the returns <= valueAtRisk).
 * NaN when no return is left.
 * Reference: quantopian/empyrical stats.py `conditional_value_at_risk`.
 * @param options.cutoff left-tail probability in [0, 1], default 0.05
 * @throws InvalidArgumentError when cutoff is outside [0, 1] or options is not an object
 * @example conditionalValueAtRisk([-0.05, -0.01, 0, 0.01, 0.02], { cutoff: 0.25 }) // -0.03
 */
export function conditionalValueAtRisk(returns: ArrayLike<number>, options?: TailOptions): number {
  checkReturns(returns, "conditionalValueAtRisk");
  const cutoff = cutoffOf(options, "conditionalValueAtRisk");
  return cvarOf(finiteCopy(returns), cutoff);
}

/** CVaR of the values in `work` (no NaN; reordered in place). @internal */
export function cvarOf(work: Float64Array, cutoff: number): number {
  const n = work.length;
  if (n === 0) return Number.NaN;
  const k = Math.floor((n - 1) * cutoff);
  selectKth(work, k);
  let sum = 0;
  for (let i = 0; i <= k; i++) sum += work[i] as number;
  return sum / (k + 1);
}
