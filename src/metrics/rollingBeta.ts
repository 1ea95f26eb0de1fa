import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { checkReturns } from "./ReturnsOptions.js";

/**
 * Rolling beta to a benchmark over the last `window` bars: at bar t,
 * `cov(r, b) / var(b)` over the bars of `t-window+1..t` where both returns
 * are known (the slope of `alphaBeta`, window by window). Output has the
 * input's length; NaN for the first window - 1 bars, for windows with fewer
 * than 2 complete pairs and where the benchmark is constant. Cost O(n) by
 * running sums of values shifted by the first pair, re-summed every 4096 bars.
 * Reference: pandas `r.rolling(w).cov(b) / b.rolling(w).var()`; empyrical `roll_beta`.
 * @param benchmark benchmark returns (e.g. buy & hold of the coin), one per bar
 * @param options.window bars per window, integer >= 2
 * @throws InvalidArgumentError when the lengths differ or the window is bad
 * @example rollingBeta([0.02, 0.04, -0.02], [0.01, 0.02, -0.01], { window: 2 })[2] // 2
 */
export function rollingBeta(returns: ArrayLike<number>, benchmark: ArrayLike<number>, options: { readonly window: number }): Float64Array {
  checkReturns(returns, "rollingBeta");
  checkReturns(benchmark, "rollingBeta", "benchmark");
  if (benchmark.length !== returns.length) {
    throw new InvalidArgumentError("benchmark", `rollingBeta: benchmark must have one return per bar (${returns.length}), got ${benchmark.length}`);
  }
  const window = options?.window;
  if (!Number.isInteger(window) || window < 2) {
    throw new InvalidArgumentError("window", `rollingBeta: window must be an integer >= 2 (bars per window), got ${String(window)}`);
  }
  const n = returns.length;
  const out = new Float64Array(n).fill(Number.NaN);
  let sr = 0;
  let sb = 0;
  for (let i = 0; i < n; i++) {
    if (!Number.isNaN(returns[i] as number) && !Number.isNaN(benchmark[i] as number)) {
      sr = returns[i] as number;
      sb = benchmark[i] as number;
      break;
    }
  }
  let sumR = 0;
  let sumB = 0;
  let sumBB = 0;
  let sumRB = 0;
  let count = 0;
  const add = (i: number, sign: number): void => {
    const r = (returns[i] as number) - sr;
    const b = (benchmark[i] as number) - sb;
    if (Number.isNaN(r) || Number.isNaN(b)) return;
    sumR += sign * r;
    sumB += sign * b;
    sumBB += sign * b * b;
    sumRB += sign * r * b;
    count += sign;
  };
  for (let t = 0; t < n; t++) {
    add(t, 1);
    if (t >= window) add(t - window, -1);
    if (t % 4096 === 4095) {
      sumR = sumB = sumBB = sumRB = count = 0;
      for (let k = Math.max(0, t - window + 1); k <= t; k++) add(k, 1);
    }
    if (t < window - 1 || count < 2) continue;
    const varB = sumBB - (sumB * sumB) / count;
    if (!(varB > 1e-12 * sumBB)) continue; // a constant benchmark (up to rounding of the running sums)
    out[t] = (sumRB - (sumR * sumB) / count) / varB;
  }
  return out;
}
