import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { checkReturns, periodsPerYearOf, type ReturnsOptions } from "./ReturnsOptions.js";

/**
 * Rolling annualised Sharpe ratio over the last `window` returns:
 * at bar t, `sharpeRatio(returns[t-window+1..t])` (NaN returns in the window
 * skipped, as empyrical's `roll_sharpe_ratio` does). Output has the input's
 * length; the first window - 1 bars are NaN, and so is any window with fewer
 * than 2 non-NaN returns. A window whose (non-NaN) returns are all identical has
 * exactly zero variance and its value as the mean (running sums would leave
 * residues of 1e-18): ±Infinity, or NaN when the excess return is 0, e.g. a
 * flat stretch of a strategy (0 / 0, as pandas' rolling mean / std and empyrical).
 * Cost O(n): running sums of returns shifted by the first value, re-summed
 * every 4096 bars, and the length of the run of identical returns (as pandas'
 * rolling mean and var track it).
 * Reference: quantopian/empyrical `roll_sharpe_ratio`; pandas `Series.rolling`
 * (`mean() / std()`, which tests check value for value, NaN and infinities included).
 * @param options.window returns per window, integer >= 2
 * @param options.riskFree constant per-period risk-free return (default 0)
 * @param options.periodsPerYear bars per year, or
 * @param options.time bar times (epoch ms) to infer it from; one of the two is required (see {@link AnnualisationOptions})
 * @throws InvalidArgumentError on a bad window or riskFree, when periodsPerYear or time is missing or bad,
 *   or when called the 0.1 way `rollingSharpe(returns, window, options)`
 * @example rollingSharpe([0.01, 0.03, 0.02, 0.04], { window: 2, periodsPerYear: 1 })[1] // ≈ 1.414
 */
export function rollingSharpe(
  returns: ArrayLike<number>,
  options: ReturnsOptions & { readonly window: number; readonly riskFree?: number },
): Float64Array {
  checkReturns(returns, "rollingSharpe");
  if (typeof options !== "object" || options === null) {
    throw new InvalidArgumentError(
      "options",
      `rollingSharpe: options must be an object like { window: 30, periodsPerYear: 365 } (the window is no longer a positional argument), got ${String(options)}`,
    );
  }
  const window = options.window;
  if (!Number.isInteger(window) || window < 2) {
    throw new InvalidArgumentError("window", `rollingSharpe: window must be an integer >= 2 (returns per window), got ${String(window)}`);
  }
  const ppy = periodsPerYearOf(options, "rollingSharpe");
  const rf = options.riskFree ?? 0;
  if (typeof rf !== "number" || !Number.isFinite(rf)) {
    throw new InvalidArgumentError("riskFree", `rollingSharpe: riskFree must be a finite number (per-period return), got ${String(rf)}`);
  }
  const n = returns.length;
  const out = new Float64Array(n).fill(Number.NaN);
  let shift = Number.NaN;
  for (let i = 0; i < n; i++) {
    const v = returns[i] as number;
    if (!Number.isNaN(v)) {
      shift = v - rf;
      break;
    }
  }
  const x = (i: number): number => (returns[i] as number) - rf - shift;
  const scale = Math.sqrt(ppy);
  let sum = 0;
  let sumSq = 0;
  let count = 0;
  // The last non-NaN return and how many non-NaN returns in a row (NaN skipped) equal it.
  let last = Number.NaN;
  let run = 0;
  for (let t = 0; t < n; t++) {
    const v = x(t);
    if (!Number.isNaN(v)) {
      sum += v;
      sumSq += v * v;
      count++;
      const r = returns[t] as number;
      run = r === last ? run + 1 : 1;
      last = r;
    }
    const leaving = t - window;
    if (leaving >= 0) {
      const q = x(leaving);
      if (!Number.isNaN(q)) {
        sum -= q;
        sumSq -= q * q;
        count--;
      }
    }
    if (t % 4096 === 4095) {
      sum = 0;
      sumSq = 0;
      count = 0;
      for (let k = Math.max(0, t - window + 1); k <= t; k++) {
        const q = x(k);
        if (!Number.isNaN(q)) {
          sum += q;
          sumSq += q * q;
          count++;
        }
      }
    }
    if (t < window - 1 || count < 2) continue;
    if (run >= count) {
      out[t] = ((last - rf) / 0) * scale;
      continue;
    }
    const meanShifted = sum / count;
    const variance = Math.max(0, (sumSq - count * meanShifted * meanShifted) / (count - 1));
    const mean = meanShifted + shift;
    out[t] = (mean / Math.sqrt(variance)) * scale;
  }
  return out;
}
