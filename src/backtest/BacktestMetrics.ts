import type { KernelState } from "./kernel/KernelState.js";
import { sharpeFromSums } from "./sharpeFromSums.js";

/**
 * The headline numbers of one backtest, from the engine's run accumulators (no per-bar series
 * needed): the numbers a sweep reports for each variant (SWEEP_METRICS), under the same names.
 * - `totalReturn`: final equity / initial cash - 1 (decimal; NaN with no bar);
 * - `sharpeRatio`: annualised Sharpe ratio of the n - 1 per-bar returns (bar 0 has none), mean /
 *   standard deviation (ddof 1) x sqrt(periodsPerYear), from their sums (sharpeFromSums): equal to
 *   `sharpeRatio(returns.subarray(1), { periodsPerYear })` up to rounding;
 * - `maxDrawdown`: worst fall from a running peak of equity, a negative decimal or 0 (as `maxDrawdown`);
 * - `trades`: round trips, the one still open at the end included (`trades.length`);
 * - `turnover`: sum over bars of the notional traded / equity (the sum of the `turnover` series);
 * - `exposure`: mean over bars of the gross weight held at each close (mean of |`exposure`|).
 */
export interface BacktestMetrics {
  readonly totalReturn: number;
  readonly sharpeRatio: number;
  readonly maxDrawdown: number;
  readonly trades: number;
  readonly turnover: number;
  readonly exposure: number;
}

/**
 * A run's metrics from its engine pass's final state (a pass with `accumulate` on): see
 * {@link BacktestMetrics}. The one rule of a backtest's and of every sweep variant's metrics.
 * @param n bars of the run
 * @example runMetrics(state, 3, 1000, 365).totalReturn // state.equity / 1000 - 1
 * @internal
 */
export function runMetrics(st: KernelState, n: number, initialCash: number, periodsPerYear: number): BacktestMetrics {
  return {
    totalReturn: n > 0 ? st.equity / initialCash - 1 : Number.NaN,
    sharpeRatio: sharpeFromSums(st.sumReturns, st.sumSquaredReturns, n - 1, periodsPerYear),
    maxDrawdown: n > 0 ? st.maxDrawdown : Number.NaN,
    trades: st.trades,
    turnover: st.turnover,
    exposure: n > 0 ? st.grossExposure / n : Number.NaN,
  };
}
