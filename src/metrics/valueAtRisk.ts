import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { checkOptionsObject } from "../errors/checkOptionsObject.js";
import { checkReturns } from "./ReturnsOptions.js";

/** A copy of the non-NaN values (scratch space for the selections below). @internal */
export function finiteCopy(x: ArrayLike<number>): Float64Array {
  let count = 0;
  for (let i = 0; i < x.length; i++) if (!Number.isNaN(x[i] as number)) count++;
  const out = new Float64Array(count);
  let k = 0;
  for (let i = 0; i < x.length; i++) {
    const v = x[i] as number;
    if (!Number.isNaN(v)) out[k++] = v;
  }
  return out;
}

/**
 * Partially order `a` in place so that a[k] holds the k-th smallest value,
 * smaller-or-equal values before it and larger-or-equal after (Hoare's
 * quickselect with median-of-three pivots, O(n) on average). @internal
 */
export function selectKth(a: Float64Array, k: number): void {
  let left = 0;
  let right = a.length - 1;
  while (right > left) {
    const mid = (left + right) >>> 1;
    // median of three into a[mid]
    if ((a[mid] as number) < (a[left] as number)) swap(a, mid, left);
    if ((a[right] as number) < (a[left] as number)) swap(a, right, left);
    if ((a[right] as number) < (a[mid] as number)) swap(a, right, mid);
    const pivot = a[mid] as number;
    let i = left;
    let j = right;
    while (i <= j) {
      while ((a[i] as number) < pivot) i++;
      while ((a[j] as number) > pivot) j--;
      if (i <= j) {
        swap(a, i, j);
        i++;
        j--;
      }
    }
    if (k <= j) right = j;
    else if (k >= i) left = i;
    else return;
  }
}

function swap(a: Float64Array, i: number, j: number): void {
  const t = a[i] as number;
  a[i] = a[j] as number;
  a[j] = t;
}

/**
 * numpy's default (linear) percentile, q in [0, 1], of the values in `work`
 * (no NaN; reordered in place). NaN when empty. @internal
 */
export function percentileOf(work: Float64Array, q: number): number {
  const n = work.length;
  if (n === 0) return Number.NaN;
  const h = (n - 1) * q;
  const lo = Math.floor(h);
  selectKth(work, lo);
  const a = work[lo] as number;
  if (h === lo || lo + 1 >= n) return a;
  let b = Infinity;
  for (let i = lo + 1; i < n; i++) if ((work[i] as number) < b) b = work[i] as number;
  return a + (h - lo) * (b - a);
}

/** Options of {@link valueAtRisk} and {@link conditionalValueAtRisk}. */
export interface TailOptions {
  /** Left-tail probability in [0, 1] [0.05]. */
  readonly cutoff?: number;
}

/** The checked cutoff of a TailOptions (default 0.05). @internal */
export function cutoffOf(options: TailOptions | undefined, where: string): number {
  checkOptionsObject(options, where, `${where}(returns, { cutoff: 0.05 })`);
  const cutoff = options?.cutoff ?? 0.05;
  checkCutoff(cutoff, where);
  return cutoff;
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
 * @param options.cutoff left-tail probability in [0, 1], default 0.05
 * @throws InvalidArgumentError when cutoff is outside [0, 1] or options is not an object
 * @example valueAtRisk([1, 81, 82, 83, 84, 85], { cutoff: 0.1 }) // 41
 */
export function valueAtRisk(returns: ArrayLike<number>, options?: TailOptions): number {
  checkReturns(returns, "valueAtRisk");
  const cutoff = cutoffOf(options, "valueAtRisk");
  return percentileOf(finiteCopy(returns), cutoff);
}
