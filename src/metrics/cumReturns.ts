import { checkReturns } from "./ReturnsOptions.js";

/**
 * Cumulative compounded return after each period.
 *
 * Definition (empyrical `cum_returns`): NaN returns count as 0, then
 * `cum_t = prod_{k<=t}(1 + r_k) - 1` when `startingValue` is 0 (the default),
 * or `startingValue * prod_{k<=t}(1 + r_k)` (a wealth curve) otherwise.
 * Output has the input's length; empty in, empty out.
 * Reference: quantopian/empyrical stats.py `cum_returns`.
 * @param returns simple per-period returns, decimals
 * @param startingValue 0 for cumulative returns, or the starting wealth
 * @example cumReturns([0.1, -0.1]) // Float64Array [0.1, -0.01]
 */
export function cumReturns(returns: ArrayLike<number>, startingValue = 0): Float64Array {
  checkReturns(returns, "cumReturns");
  const n = returns.length;
  const out = new Float64Array(n);
  let wealth = 1;
  for (let i = 0; i < n; i++) {
    const r = returns[i] as number;
    if (!Number.isNaN(r)) wealth *= 1 + r;
    out[i] = startingValue === 0 ? wealth - 1 : wealth * startingValue;
  }
  return out;
}

/**
 * Total compounded return over the whole series (empyrical `cum_returns_final`):
 * `prod(1 + r) - 1` with NaN returns counted as 0; NaN on empty input.
 * With a non-zero `startingValue`, the final wealth instead.
 * @example cumReturnsFinal([0.1, -0.1]) // -0.01 (up to rounding)
 */
export function cumReturnsFinal(returns: ArrayLike<number>, startingValue = 0): number {
  checkReturns(returns, "cumReturnsFinal");
  const n = returns.length;
  if (n === 0) return Number.NaN;
  let wealth = 1;
  for (let i = 0; i < n; i++) {
    const r = returns[i] as number;
    if (!Number.isNaN(r)) wealth *= 1 + r;
  }
  return startingValue === 0 ? wealth - 1 : wealth * startingValue;
}
