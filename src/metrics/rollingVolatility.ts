import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { checkReturns, periodsPerYearOf, type ReturnsOptions } from "./ReturnsOptions.js";

/**
 * Rolling annualised volatility over the last `window` returns: at bar t the
 * sample standard deviation (ddof 1) of `returns[t-window+1..t]` times
 * `sqrt(periodsPerYear)`, NaN returns skipped. Output has the input's length;
 * the first window - 1 bars are NaN, and so is any window with fewer than 2
 * non-NaN returns. Cost O(n) (running sums of values shifted by the first
 * one, re-summed every 4096 bars, as `rollingSharpe`).
 * Reference: pandas `r.rolling(window, min_periods=2).std() * sqrt(ppy)` (where the window is full).
 * @param options.window returns per window, integer >= 2
 * @throws InvalidArgumentError on a bad window or periodsPerYear
 * @example rollingVolatility([0.01, 0.03, 0.02], { window: 2, periodsPerYear: 1 })[1] // ≈ 0.01414
 */
export function rollingVolatility(returns: ArrayLike<number>, options: ReturnsOptions & { readonly window: number }): Float64Array {
  checkReturns(returns, "rollingVolatility");
  const window = options?.window;
  if (!Number.isInteger(window) || window < 2) {
    throw new InvalidArgumentError("window", `rollingVolatility: window must be an integer >= 2 (returns per window), got ${String(window)}`);
  }
  const scale = Math.sqrt(periodsPerYearOf(options, "rollingVolatility"));
  const n = returns.length;
  const out = new Float64Array(n).fill(Number.NaN);
  let shift = 0;
  for (let i = 0; i < n; i++) {
    if (!Number.isNaN(returns[i] as number)) {
      shift = returns[i] as number;
      break;
    }
  }
  let sum = 0;
  let sumSq = 0;
  let count = 0;
  const add = (i: number, sign: number): void => {
    const v = (returns[i] as number) - shift;
    if (Number.isNaN(v)) return;
    sum += sign * v;
    sumSq += sign * v * v;
    count += sign;
  };
  for (let t = 0; t < n; t++) {
    add(t, 1);
    if (t >= window) add(t - window, -1);
    if (t % 4096 === 4095) {
      sum = 0;
      sumSq = 0;
      count = 0;
      for (let k = Math.max(0, t - window + 1); k <= t; k++) add(k, 1);
    }
    if (t < window - 1 || count < 2) continue;
    const mean = sum / count;
    out[t] = Math.sqrt(Math.max(0, (sumSq - count * mean * mean) / (count - 1))) * scale;
  }
  return out;
}
