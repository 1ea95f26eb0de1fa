import { checkOptionsObject } from "../errors/checkOptionsObject.js";
import { checkReturns } from "./ReturnsOptions.js";

/** Options of {@link cumReturns} and {@link cumReturnsFinal}. */
export interface CumReturnsOptions {
  /** 0 for cumulative returns (the default), or the starting wealth for a wealth curve. */
  readonly startingValue?: number;
}

function startingValueOf(options: CumReturnsOptions | undefined, where: string): number {
  checkOptionsObject(options, where, `${where}(returns, { startingValue: 100 })`);
  return options?.startingValue ?? 0;
}

/**
 * Cumulative compounded return after each period.
 *
 * Definition (empyrical `cum_returns`): NaN returns count as 0, then
 * `cum_t = prod_{k<=t}(1 + r_k) - 1` when `startingValue` is 0 (the default),
 * or `startingValue * prod_{k<=t}(1 + r_k)` (a wealth curve) otherwise.
 * Output has the input's length; empty in, empty out.
 * Reference: quantopian/empyrical stats.py `cum_returns`.
 * @param returns simple per-period returns, decimals
 * @param options.startingValue 0 for cumulative returns (default), or the starting wealth
 * @throws InvalidArgumentError when options is not an object (the 0.1 positional `cumReturns(r, 100)`)
 * @example cumReturns([0.1, -0.1]) // Float64Array [0.1, -0.01]
 */
export function cumReturns(returns: ArrayLike<number>, options?: CumReturnsOptions): Float64Array {
  checkReturns(returns, "cumReturns");
  const startingValue = startingValueOf(options, "cumReturns");
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
 * With a non-zero `options.startingValue`, the final wealth instead.
 * @throws InvalidArgumentError when options is not an object
 * @example cumReturnsFinal([0.1, -0.1]) // -0.01 (up to rounding)
 */
export function cumReturnsFinal(returns: ArrayLike<number>, options?: CumReturnsOptions): number {
  checkReturns(returns, "cumReturnsFinal");
  const startingValue = startingValueOf(options, "cumReturnsFinal");
  const n = returns.length;
  if (n === 0) return Number.NaN;
  let wealth = 1;
  for (let i = 0; i < n; i++) {
    const r = returns[i] as number;
    if (!Number.isNaN(r)) wealth *= 1 + r;
  }
  return startingValue === 0 ? wealth - 1 : wealth * startingValue;
}
