import type { BacktestResult } from "./BacktestResult.js";

/**
 * The per-bar series of a backtest result, by their table names: the columns of
 * `toDataFrame()`, of `toParquet(path)` and of the result fingerprint in a run manifest.
 * Reading them computes the secondary series (one more kernel pass, see BacktestResult).
 * @example backtestColumns(backtest({ close: [1, 2], position: [1, 1] })).equity // Float64Array [1, 2]
 */
export function backtestColumns(result: BacktestResult): Record<string, Float64Array> {
  return {
    time: result.time,
    equity: result.equity,
    returns: result.returns,
    positions: result.positions,
    exposure: result.exposure,
    holdings: result.holdings,
    turnover: result.turnover,
    fees: result.fees,
    funding_paid: result.fundingPaid,
  };
}
