import { drawdownDetails } from "./drawdownDetails.js";
import { checkReturns } from "./ReturnsOptions.js";

/**
 * Maximum drawdown: the worst peak-to-trough fall of the wealth curve, as a
 * negative decimal (-0.25 = a 25 % fall; 0 when wealth never falls).
 *
 * Definition (empyrical `max_drawdown`): wealth starts at 1 before the first
 * return (that start counts as a peak), compounds `1 + r` (NaN returns count
 * as 0), and the result is `min_t (W_t - max_{s<=t} W_s) / max_{s<=t} W_s`.
 * NaN on empty input.
 * Reference: quantopian/empyrical stats.py `max_drawdown`.
 * @example maxDrawdown([0.1, -0.1, 0.1]) // -0.1
 */
export function maxDrawdown(returns: ArrayLike<number>): number {
  checkReturns(returns, "maxDrawdown");
  return drawdownDetails(returns).maxDrawdown;
}
