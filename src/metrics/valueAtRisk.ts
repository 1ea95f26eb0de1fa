import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { checkReturns } from "./ReturnsOptions.js";

/** The non-NaN values, sorted ascending. @internal */
export function sortedFinite(x: ArrayLike<number>): Float64Array {
  let count = 0;
  for (let i = 0; i < x.length; i++) if (!Number.isNaN(x[i] as number)) count++;
  const out = new Float64Array(count);
  let k = 0;
  for (let i = 0; i < x.length; i++) {
    const v = x[i] as number;
    if (!Number.isNaN(v)) out[k++] = v;
  }
  return out.sort();
}

/** numpy's default (linear) percentile of sorted values, q in [0, 1]. @internal */
export function percentileSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const h = (n - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, n - 1);
  const a = sorted[lo] as number;
  const b = sorted[hi] as number;
  return a + (h - lo) * (b - a);
}

/** @internal */
export function checkCutoff(cutoff: number, where: string): void {
  if (typeof cutoff !== "number" || !(cutoff >= 0 && cutoff <= 1)) {
    throw new InvalidArgumentError("cutoff", `${where}: cutoff must be a probability in [0, 1] (0.05 for the 5 % tail), got ${String(cutoff)}`);
  }
}

/**
 * Historical value at risk: the `cutoff` quantile of the per-period returns,
 * a (usually negative) decimal return: "in 5 % of periods the return was
 * this bad or worse".
 *
 * Definition (empyrical `value_at_risk`): `np.percentile(returns, 100 * cutoff)`
 * with linear interpolation. NaN returns are skipped (numpy would return NaN);
 * NaN when no return is left.
 * Reference: quantopian/empyrical stats.py `value_at_risk`.
 * @param cutoff left-tail probability in [0, 1], default 0.05
 * @throws InvalidArgumentError when cutoff is outside [0, 1]
 * @example valueAtRisk([1, 81, 82, 83, 84, 85], 0.1) // 41
 */
export function valueAtRisk(returns: ArrayLike<number>, cutoff = 0.05): number {
  checkReturns(returns, "valueAtRisk");
  checkCutoff(cutoff, "valueAtRisk");
  return percentileSorted(sortedFinite(returns), cutoff);
}
