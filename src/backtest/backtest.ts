import type { DataFrame } from "../data/danfo.js";
import { toDataFrame } from "../data/toDataFrame.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { tradesFrame, type BacktestResult } from "./BacktestResult.js";
import type { Trade } from "./Trade.js";
import { checkExecution, checkPrices, resolveExecution, type ExecutionOptions } from "./execution.js";
import { tableColumn, type PriceTable } from "./priceColumns.js";
import { simulate, type SimOutput } from "./simulate.js";
import { simulateDefault } from "./simulateDefault.js";
import { checkLength, targetPositions, type TargetOptions } from "./targetPositions.js";

/** Options of {@link backtest}: prices, the strategy ({@link TargetOptions}) and execution ({@link ExecutionOptions}). */
export interface BacktestOptions extends TargetOptions, ExecutionOptions {
  /**
   * Optional table to read `time`, `close`, `open`, `high`, `low` and `funding` from
   * (by those column names) when they are not given directly: a Panel, a danfo
   * DataFrame (e.g. from `loadRealCandles`) or plain columns.
   */
  readonly data?: PriceTable;
  /** Epoch ms of each bar, strictly ascending. Default: the bar index 0, 1, ..., n-1. */
  readonly time?: ArrayLike<number>;
  /** Close price per bar (> 0; NaN = no price: no trading, position carried, equity flat). */
  readonly close?: ArrayLike<number>;
  /** Open price per bar; required by `fill: "next_open"`. */
  readonly open?: ArrayLike<number>;
  /** High and low: accepted for completeness and checked for length; the engine does not use them. */
  readonly high?: ArrayLike<number>;
  readonly low?: ArrayLike<number>;
  /** Per-bar funding rate, decimal, for the bar ending at that row (see fundingPerBar); longs pay when positive. */
  readonly funding?: ArrayLike<number>;
  /** Coin name written on each trade. */
  readonly coin?: string;
}

/**
 * Backtest one instrument: target positions -> fills -> costs -> funding -> equity -> trades,
 * in one pass over typed arrays.
 *
 * Semantics (docs/DESIGN.md, "Backtest semantics"), by default (`fill: "next_close"`,
 * `rebalance: "every_bar"`, fractional units):
 * - the target w_i is decided from data known at the close of bar i and filled at that
 *   close p_i, so it is held over bar i+1; the decision at the last bar is never filled
 *   (there is no bar to hold it over);
 * - `r_{i+1} = w_i (p_{i+1}/p_i - 1) - cost_i - w_i f_{i+1}` with
 *   `cost_i = (feeBps + slippageBps + spreadBps_i/2) / 1e4 x |w_i - w_{i-1}|`: the cost is
 *   charged in the return of the bar after the fill (equity[i] is the value at close i
 *   before that close's fill), and f is the funding rate of bar i+1 (longs pay f > 0), charged
 *   on the notional held at the start of the bar (see fundingPerBar to spread an hourly rate);
 * - `equity[i+1] = equity[i] (1 + r_{i+1})`, `equity[0] = initialCash`;
 * - the weight is reset to the target at every fill: between fills it drifts, and that
 *   re-weighting is not charged (the convention of vectorised backtests; a 100% long never
 *   drifts, but shorts, partial and levered weights do: use `rebalance: "on_change"` to hold
 *   units between target changes and pay for every unit traded).
 *
 * Options:
 * - `fill: "next_open"`: w_i fills at open_{i+1}; bar i+1 earns open_{i+1}/close_i with the
 *   old units and close_{i+1}/open_{i+1} with the new; the cost is on the equity at the open,
 *   and funding on the new units at the open price;
 * - `units: "whole"`: floor(equity x |w| / (price x (1 + cost rate))) units, leftover cash kept
 *   (rebalanced only when the target changes, unless `rebalance: "every_bar"` is asked);
 * - leverage cap, sizing by confidence or volatility target, regime filter: see {@link targetPositions};
 * - NaN price: no fill on that bar, the position is carried and valued at the last price;
 * - ruin: if equity reaches <= 0 (at a close, or at an open under next_open) everything is
 *   closed there and trading stops (`ruinIndex`); equity is then flat (possibly negative).
 *
 * Trades open when the holding leaves 0 or flips sign, close when it returns to 0 or flips
 * (a flip's cost is split between the two legs in proportion to what each trades). A trade reports entry/exit index,
 * time and fill price, side, the largest units held, `return` = sign x (exit/entry - 1)
 * before costs, `pnl` in cash after its fees and funding, `netReturn` = pnl / entry
 * notional, bars held (exit index - entry index), fees and funding paid. A trade open at
 * the end is marked at the last close and flagged `open: true`.
 *
 * Causal: equity, positions, exposure and trades up to bar t use data up to bar t only.
 * Cost: O(n) in one pass; no objects in the loop (trades are recorded columnar and built as
 * objects on first access to `trades`). The default mode runs on a dedicated fast path.
 * @throws InvalidArgumentError on missing/unequal columns, non-ascending time, non-positive
 *   prices, a missing or doubled position/signal, or out-of-range options
 * @example
 * const r = backtest({ time: [0, 1, 2], close: [100, 110, 99], position: [1, 0, 0], initialCash: 1000 });
 * Array.from(r.equity) // [1000, 1100, 1100]
 * r.trades[0].return   // 110 / 100 - 1 = 0.1 (bought at close 0, sold at close 1)
 */
export function backtest(options: BacktestOptions): BacktestResult {
  const where = "backtest";
  if (typeof options !== "object" || options === null) {
    throw new InvalidArgumentError("options", `${where}: options must be an object like { time, close, position }, got ${String(options)}`);
  }
  const data = options.data;
  const pick = (name: "time" | "close" | "open" | "high" | "low" | "funding"): ArrayLike<number> | undefined =>
    options[name] ?? (data !== undefined ? tableColumn(data, name, where) : undefined);
  const close = pick("close");
  if (close === undefined) {
    throw new InvalidArgumentError("close", `${where}: close prices are required (pass close, or data with a close column)`);
  }
  const n = close.length;
  const given = pick("time");
  const open = pick("open");
  const funding = pick("funding");
  checkLength("close", close, n, where);
  checkLength("time", given, n, where);
  checkLength("open", open, n, where);
  checkLength("high", pick("high"), n, where);
  checkLength("low", pick("low"), n, where);
  checkLength("funding", funding, n, where);
  checkLength("spreadBps", options.spreadBps, n, where);
  const exec = resolveExecution(options, where);
  if (given !== undefined) checkExecution(given, where);
  checkPrices("close", close, where);
  if (exec.nextOpen) {
    if (open === undefined) throw new InvalidArgumentError("open", `${where}: fill "next_open" needs open prices (pass open, or data with an open column)`);
    checkPrices("open", open, where);
  }

  const { positions, capped } = targetPositions(options, n, where);
  carryOnMissingPrice(positions, close);
  const coin = { name: options.coin, close, open, target: positions, funding, spreadBps: options.spreadBps };
  const settings = { n, initialCash: exec.initialCash, costBps: exec.costBps, nextOpen: exec.nextOpen, whole: exec.whole, everyBar: exec.everyBar };
  const fast = !exec.nextOpen && !exec.whole && exec.everyBar;
  // The fast path first produces equity and trades only; the other series come from one
  // full re-run (same arithmetic, same numbers) the first time one of them is asked for.
  const primary = fast ? simulateDefault(coin, settings, false) : simulate([coin], settings);
  let complete: SimOutput | undefined = fast ? undefined : primary;
  const full = (): SimOutput => (complete ??= simulateDefault(coin, settings, true));
  let returns: Float64Array | undefined = fast ? undefined : primary.returns;
  // Time as given, or the bar index, built only when asked for.
  let t: Float64Array | undefined = given === undefined ? undefined : given instanceof Float64Array ? given : Float64Array.from(given);
  const timeOf = (): Float64Array => (t ??= barIndex(n));
  let trades: Trade[] | undefined;
  const result: BacktestResult = {
    get time(): Float64Array {
      return timeOf();
    },
    equity: primary.equity,
    get returns(): Float64Array {
      return (returns ??= returnsOf(primary.equity));
    },
    positions,
    get exposure(): Float64Array {
      return full().exposure;
    },
    get holdings(): Float64Array {
      return full().units[0] as Float64Array;
    },
    get turnover(): Float64Array {
      return full().turnover;
    },
    get fees(): Float64Array {
      return full().fees;
    },
    get fundingPaid(): Float64Array {
      return full().fundingPaid;
    },
    get trades(): Trade[] {
      return (trades ??= primary.log.toTrades(timeOf(), [options.coin]));
    },
    capped,
    ruinIndex: primary.ruinIndex,
    toDataFrame(): DataFrame {
      return toDataFrame({
        time: result.time,
        equity: result.equity,
        returns: result.returns,
        positions,
        exposure: result.exposure,
        holdings: result.holdings,
        turnover: result.turnover,
        fees: result.fees,
        funding_paid: result.fundingPaid,
      });
    },
    tradesToDataFrame(): DataFrame {
      return tradesFrame(result.trades);
    },
  };
  return result;
}

/** No decision can be filled on a bar without a close: carry the previous target there (in place, on our own array). @internal */
export function carryOnMissingPrice(target: Float64Array, close: ArrayLike<number>): void {
  for (let i = 0; i < target.length; i++) {
    const c = close[i] as number;
    if (c !== c) target[i] = i > 0 ? (target[i - 1] as number) : 0;
  }
}

/** 0, 1, ..., n-1: the bar index, used as time when none is given. */
function barIndex(n: number): Float64Array {
  const t = new Float64Array(n);
  for (let i = 0; i < n; i++) t[i] = i;
  return t;
}

/** Simple returns of an equity curve: NaN at bar 0, then equity[i] / equity[i-1] - 1 (0 when unchanged), as the engine computes them. */
function returnsOf(equity: Float64Array): Float64Array {
  const n = equity.length;
  const r = new Float64Array(n);
  if (n > 0) r[0] = Number.NaN;
  for (let i = 1; i < n; i++) {
    const e = equity[i] as number;
    const prev = equity[i - 1] as number;
    r[i] = e === prev ? 0 : e / prev - 1;
  }
  return r;
}
