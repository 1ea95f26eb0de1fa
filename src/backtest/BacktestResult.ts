import type { DataFrame } from "../data/danfo.js";
import { toDataFrame } from "../data/toDataFrame.js";
import type { Manifest } from "../store/createManifest.js";
import type { WriteParquetOptions } from "../store/writeParquet.js";
import type { BacktestMetrics } from "./BacktestMetrics.js";
import type { CostBreakdown } from "./CostBreakdown.js";
import type { Trade } from "./Trade.js";

/**
 * What a backtest returns. Every series has one value per input bar.
 * Indexing: `equity[i]`, `returns[i]`, `exposure[i]` and `holdings[i]` are read at the
 * close of bar i (holdings and exposure after that close's fill); `positions[i]` is the
 * target decided at the close of bar i (held over bar i+1); `turnover[i]`, `fees[i]` and
 * `fundingPaid[i]` belong to the fills and funding that happened during bar i.
 * From `backtest`, what its `outputs` option did not ask for (by default everything but equity:
 * the trades, `positions`, `returns`, the secondary series exposure, holdings, turnover, fees,
 * fundingPaid, and `metrics`) is computed on first access (then cached) by one more pass of the
 * same kernel, with the same numbers (the trade ledger is recorded by the first such pass): a run
 * that only needs equity never allocates the rest, and one asked for `outputs: ["metrics"]`
 * touches no memory of the run's length.
 * `console.log(bt)` (and a notebook cell's last value) prints a short form: bars, UTC range,
 * equity first and last, total return, trades (a non-enumerable `util.inspect.custom`).
 */
export interface BacktestResult {
  /** Epoch ms of each bar. */
  readonly time: Float64Array;
  /** Account value at each close, `equity[0] = initialCash`, marked to market. */
  readonly equity: Float64Array;
  /** Simple return of each bar, `equity[i] / equity[i-1] - 1`; NaN at bar 0. */
  readonly returns: Float64Array;
  /** Target fraction of equity decided at the close of each bar (after sizing, filter and leverage cap). */
  readonly positions: Float64Array;
  /** Net weight actually held at each close: units x close / equity (differs from positions through drift and whole units). */
  readonly exposure: Float64Array;
  /** Units (coins) held at each close; for a portfolio, see `coins[name].holdings`. */
  readonly holdings: Float64Array;
  /** Notional traded during each bar as a fraction of equity at the fill (|w_i - w_{i-1}| by default). */
  readonly turnover: Float64Array;
  /** Fees, slippage and half-spread paid during each bar, in cash. */
  readonly fees: Float64Array;
  /** Funding paid during each bar, in cash (negative = received). */
  readonly fundingPaid: Float64Array;
  /**
   * Round trips, in entry order; a trade still open at the end has `open: true`. Built from the
   * engine's columnar ledger on first access (then cached), so runs that never look at trades
   * (sweeps) do not pay for the objects; from `backtest`, the ledger itself is recorded by its
   * first pass only when `outputs` names `"trades"`, else by the first later pass.
   */
  readonly trades: readonly Trade[];
  /**
   * The run's costs by kind, cash: fees, slippage, spread, impact, funding (see
   * {@link CostBreakdown}), summed over the trades (computed on first access).
   */
  readonly costs: CostBreakdown;
  /**
   * The run's headline numbers: totalReturn, sharpeRatio, maxDrawdown, trades, turnover, exposure
   * (see {@link BacktestMetrics}: a sweep's metrics, same names and rule), from the engine's run
   * accumulators, not from the series: with `outputs: ["metrics"]` the backtest computes them in its
   * one pass and writes no per-bar series at all; otherwise on first access (one more pass).
   * The Sharpe ratio is annualised by the backtest's `periodsPerYear`, else inferred from `time`.
   * @throws InvalidArgumentError on access when neither `periodsPerYear` nor `time` was given
   */
  readonly metrics: BacktestMetrics;
  /** Bars whose target the leverage cap reduced. */
  readonly capped: number;
  /** First bar at which equity fell to <= 0 (everything closed, trading stopped), or -1. */
  readonly ruinIndex: number;
  /**
   * The last bar was still open when its `data` was loaded (the loader's `coverage.partialLastBar`):
   * kept, so every series has the input's length, but the last equity, and an open trade's mark,
   * are at a provisional close; its target is never filled anyway (no bar after it). The one
   * partial-bar rule: lastBarComplete (resample drops such a bar).
   */
  readonly partialLastBar: boolean;
  /**
   * The bar table (backtestColumns): time, equity, returns, positions, exposure, holdings, turnover, fees,
   * funding_paid; for a portfolio the same without holdings, then `<coin>_position`, `<coin>_exposure`,
   * `<coin>_holdings` for each coin in the order given.
   */
  toDataFrame(): DataFrame;
  /** The trade list as a table, one row per trade (times as epoch ms). */
  tradesToDataFrame(): DataFrame;
  /**
   * What produced this result (package version, git commit, every option, SHA-256 of each input
   * column and of each result column, time range, created-at): `replayManifest(manifest, data)`
   * re-runs it and checks the result is bit-identical. Built on first access (it hashes the series).
   */
  readonly manifest: Manifest;
  /** Write the bar table (`toDataFrame()`'s columns) to a Parquet file, atomically (see writeParquet). */
  toParquet(path: string, options?: WriteParquetOptions): Promise<void>;
}

/** Trade list as columns (also used by the portfolio result). @internal */
export function tradesFrame(trades: readonly Trade[]): DataFrame {
  return toDataFrame({
    coin: trades.map((t) => t.coin ?? ""),
    side: trades.map((t) => t.side),
    entry_time: trades.map((t) => t.entryTime),
    exit_time: trades.map((t) => t.exitTime),
    entry_price: trades.map((t) => t.entryPrice),
    exit_price: trades.map((t) => t.exitPrice),
    units: trades.map((t) => t.units),
    return: trades.map((t) => t.return),
    net_return: trades.map((t) => t.netReturn ?? Number.NaN),
    pnl: trades.map((t) => t.pnl),
    bars_held: trades.map((t) => t.barsHeld),
    fees: trades.map((t) => t.fees),
    funding: trades.map((t) => t.funding),
    open: trades.map((t) => (t.open ? 1 : 0)),
    reason: trades.map((t) => t.reason ?? ""),
    cost_fees: trades.map((t) => t.costs?.fees ?? Number.NaN),
    cost_slippage: trades.map((t) => t.costs?.slippage ?? Number.NaN),
    cost_spread: trades.map((t) => t.costs?.spread ?? Number.NaN),
    cost_impact: trades.map((t) => t.costs?.impact ?? Number.NaN),
    cost_funding: trades.map((t) => t.costs?.funding ?? Number.NaN),
  });
}
