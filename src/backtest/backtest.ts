import { backtestText } from "./backtestText.js";
import { withInspect } from "../domain/withInspect.js";
import type { DataFrame } from "../data/danfo.js";
import { toDataFrame } from "../data/toDataFrame.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { createManifest, type Manifest } from "../store/createManifest.js";
import { toParquet } from "../store/toParquet.js";
import type { WriteParquetOptions } from "../store/writeParquet.js";
import { backtestColumns } from "./backtestColumns.js";
import { tradesFrame, type BacktestResult } from "./BacktestResult.js";
import { costBreakdown, type CostBreakdown } from "./CostBreakdown.js";
import { impactScale } from "./marketImpact.js";
import type { FundingSchedule } from "./settlementFunding.js";
import { TargetDelay } from "./TargetDelay.js";
import type { Trade } from "./Trade.js";
import { checkExecution, checkIntrabarPrices, checkPrices, fundingColumn, kernelSettings, resolveExecution, withCheckClose, type Execution, type ExecutionOptions } from "./execution.js";
import { tableColumn, type PriceTable } from "./priceColumns.js";
import { KernelState, type KernelSettings } from "./kernel/KernelState.js";
import { runMetrics, type BacktestMetrics } from "./BacktestMetrics.js";
import { periodsPerYearOf } from "../metrics/ReturnsOptions.js";
import { kernelCoin, NO_SERIES, runKernel, runVariants, type KernelCoin, type KernelSeries } from "./kernel/runKernel.js";
import { compositeTargets } from "./compositeTargets.js";
import { positionTargets, signalColumnTargets } from "./positionTargets.js";
import { replayModel } from "../signals/replayComposite.js";
import { TradeLog } from "./TradeLog.js";
import { partialLastBarOf } from "../data/partialLastBarOf.js";
import { checkInto, INTO_SERIES, seriesColumn, type BacktestInto, type IntoSeries } from "./seriesInto.js";
import { blockTargetsInto } from "./blockTargetsInto.js";
import { checkOptions, type OptionsCheck } from "../options/checkOptions.js";
import { BACKTEST_OPTION_SPECS } from "./backtestOptionSpecs.js";
import { carryOnMissingPrice, checkLength, resolveTargets, TargetStream, targetsInto, type SignalBlocks, type TargetOptions, type TargetRule } from "./targetPositions.js";

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
  /** High and low per bar: read by stopLoss, takeProfit and maintenanceMargin (with open), otherwise only checked for length. */
  readonly high?: ArrayLike<number>;
  readonly low?: ArrayLike<number>;
  /**
   * Funding, positive = longs pay: a per-bar rate, decimal, for the bar ending at that row
   * (see fundingPerBar), or discrete settlements `{ rate, intervalMs }` / `{ rate, times }`
   * each charging the position held at that instant once (see settlementFunding).
   */
  readonly funding?: ArrayLike<number> | FundingSchedule;
  /** Coin name written on each trade. */
  readonly coin?: string;
  /**
   * What the backtest's pass computes up front (a name of {@link BacktestOutput} each); everything
   * else is computed on first access by one more pass of the same engine, with the same numbers
   * (a later pass also records the trade ledger while it is missing). Default `["equity"]`; add
   * `"trades"` when the trades will be read (one pass instead of two). `["metrics"]` asks for the
   * summary only: the pass then writes no per-bar series and keeps no trade ledger (no memory of
   * the run's length is touched), and `equity`, `trades` or any series read later cost one more pass.
   */
  readonly outputs?: readonly BacktestOutput[];
  /**
   * Columns of yours to write per-bar series into instead of fresh ones, e.g. `{ equity: buf }`
   * (a Float64Array of one value per bar each): the result's field is then that column
   * (`result.equity === buf`), so a loop of backtests at one length reuses its memory (no page
   * faults, no collector). You own them: the next call given the same column overwrites it; copy
   * what you keep (`buf.slice()`). See {@link BacktestInto}.
   */
  readonly into?: BacktestInto;
  /**
   * Bars per year of `metrics.sharpeRatio` (365 daily, 8760 hourly, 525600 one-minute). Default:
   * inferred from `time`; with neither, reading `metrics` throws.
   */
  readonly periodsPerYear?: number;
}

/**
 * What a backtest can compute in its first pass (see `outputs`): a per-bar series of
 * {@link BacktestResult} by its field name, `"trades"` (the trade ledger) or `"metrics"`
 * (the run accumulators behind {@link BacktestResult.metrics}).
 */
export type BacktestOutput = "equity" | "returns" | "positions" | "exposure" | "holdings" | "turnover" | "fees" | "fundingPaid" | "trades" | "metrics";

/** The names `outputs` accepts, each once. */
const BACKTEST_OUTPUTS = Object.keys({
  equity: 0,
  returns: 0,
  positions: 0,
  exposure: 0,
  holdings: 0,
  turnover: 0,
  fees: 0,
  fundingPaid: 0,
  trades: 0,
  metrics: 0,
} satisfies Record<BacktestOutput, 0>) as readonly BacktestOutput[];

/** How backtest's options are checked where they enter (checkOptions). */
const BACKTEST_CHECK: OptionsCheck = { where: "backtest", specs: BACKTEST_OPTION_SPECS, example: "backtest({ close, position })", required: true };

/** Default `outputs`: the equity column (the trade ledger is recorded by the first pass that runs after, or on first read of `trades`). */
const DEFAULT_OUTPUTS: readonly BacktestOutput[] = ["equity"];

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
 * - `equity[i+1] = max(0, equity[i] (1 + r_{i+1}))` (the loss capped at the collateral, see ruin), `equity[0] = initialCash`;
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
 * - execution realism (each optional, see {@link ExecutionOptions} and the README): `stopLoss` /
 *   `takeProfit` and liquidation (`maintenanceMargin`) checked inside each bar on open, high and
 *   low (intrabarExit), funding at settlements (settlementFunding), `delayBars` latency, square-root
 *   market `impact`; trades carry `reason` and `costs`, the result `costs` (CostBreakdown);
 * - ruin: if equity reaches <= 0 (at a close, an intrabar exit, or an open under next_open)
 *   everything is closed there and trading stops (`ruinIndex`); the loss is capped at the
 *   collateral (equity is then 0, never negative: the shortfall of a gap or of a liquidation's
 *   fees is the exchange's, booked in the closing trade's pnl), and flat from there.
 *
 * Trades open when the holding leaves 0 or flips sign, close when it returns to 0 or flips
 * (a flip's cost is split between the two legs in proportion to what each trades). A trade reports entry/exit index,
 * time and fill price, side, the largest units held, `return` = sign x (exit/entry - 1)
 * before costs, `pnl` in cash after its fees and funding, `netReturn` = pnl / entry
 * notional, bars held (exit index - entry index), fees and funding paid. A trade open at
 * the end is marked at the last close and flagged `open: true`.
 *
 * Causal: equity, positions, exposure and trades up to bar t use data up to bar t only.
 * Cost: O(n) in one pass of the simulation kernel (src/backtest/kernel, the one engine of
 * every mode): the target rule (a position or signal column, or a composite replay's scores,
 * composite and labels) compiled into the kernel's generated loop, or with `delayBars` (or a
 * {@link SignalBlocks} other than a replay) block by block into a reused buffer then the kernel;
 * no objects in the loop (trades are recorded columnar and built as objects on first access
 * to `trades`). The pass computes what `outputs` asks, by default the equity column; the trade
 * ledger, `positions`, `returns`, the other series and `metrics` come from one more pass of the
 * same code on first access, with the same numbers (the ledger is recorded by the first later pass). `outputs: ["metrics"]` runs the summary only: no
 * per-bar series, no ledger, only the run's accumulators (`metrics`: total return, Sharpe,
 * max drawdown, trades, turnover, exposure, as a sweep reports them).
 * @throws InvalidArgumentError on missing/unequal columns, non-ascending time, non-positive
 *   prices, a missing or doubled position/signal, or out-of-range options
 * @example
 * const r = backtest({ time: [0, 1, 2], close: [100, 110, 99], position: [1, 0, 0], initialCash: 1000 });
 * Array.from(r.equity) // [1000, 1100, 1100]
 * r.trades[0].return   // 110 / 100 - 1 = 0.1 (bought at close 0, sold at close 1)
 * @example
 * // The summary only: one pass, no per-bar series written (equity, if read later, costs one more pass).
 * const s = backtest({ close: [100, 110, 99], position: [1, 0, 0], periodsPerYear: 365, outputs: ["metrics"] });
 * s.metrics // { totalReturn: 0.1, sharpeRatio: 13.5 (returns 0.1, 0), maxDrawdown: 0, trades: 1, turnover: 2, exposure: 0.333 }
 */
export function backtest(options: BacktestOptions): BacktestResult {
  const where = "backtest";
  options = checkOptions(options, BACKTEST_CHECK);
  const { n, close, time: given, exec, rule, coin, settings, outputs, periodsPerYear } = prepareBacktest(options, where);
  // One pass for what `outputs` asks (by default the equity column): the target rule
  // (from the position, the signal, or a signal computed by block such as a composite replay)
  // block by block, or fused into the kernel's loop, then the kernel. Everything else comes
  // from one more pass of the same code (same numbers) the first time it is asked for.
  const series: Partial<Record<SeriesName, Float64Array>> = {};
  const first: Record<string, Float64Array | undefined> = {};
  const into = checkInto(options.into, n, [close, given, options.open, options.high, options.low, options.position !== undefined && "length" in options.position ? options.position : undefined, options.spreadBps, ...(options.funding !== undefined && "length" in options.funding ? [options.funding] : [])], where);
  for (const name of SERIES) if (outputs.has(name)) first[name] = series[name] = seriesColumn(into, name, n);
  let log = outputs.has("trades") ? new TradeLog(exec.feeBps, exec.slippageBps) : undefined;
  const accumulating = outputs.has("metrics");
  const primary = runPass(rule, coin, accumulating ? { ...settings, accumulate: true } : settings, exec.delayBars, seriesOut(first), log, where);
  let totals: KernelState | undefined = accumulating ? primary.state : undefined;
  // A series not yet computed: one more pass writing it and every other one still missing (the
  // first read of returns computes exposure, holdings, ... too, as they are usually read together).
  const seriesOf = (name: SeriesName): Float64Array => {
    const have = series[name];
    if (have !== undefined) return have;
    const more: Record<string, Float64Array | undefined> = {};
    for (const s of name === "equity" ? (["equity"] as const) : SECONDARY) if (series[s] === undefined) more[s] = series[s] = seriesColumn(into, s, n);
    runPass(rule, coin, settings, exec.delayBars, seriesOut(more), newLedger(), undefined);
    return series[name] as Float64Array;
  };
  // Every later pass also records the trade ledger while it is missing (it moves none of the pass's numbers).
  const newLedger = (): TradeLog | undefined => (log === undefined ? (log = new TradeLog(exec.feeBps, exec.slippageBps)) : undefined);
  const ledger = (): TradeLog => {
    if (log === undefined) {
      log = new TradeLog(exec.feeBps, exec.slippageBps);
      runPass(rule, coin, settings, exec.delayBars, NO_SERIES, log, undefined);
    }
    return log;
  };
  let positions: Float64Array | undefined;
  const positionsOf = (): Float64Array => {
    if (positions !== undefined) return positions;
    const out = new Float64Array(n);
    const stream = new TargetStream();
    targetsInto(rule, stream, 0, n, out, 0);
    carryOnMissingPrice(out, close, 0, n, 0, stream);
    return (positions = out);
  };
  if (outputs.has("positions")) positionsOf();
  // Time as given, or the bar index, built only when asked for.
  let t: Float64Array | undefined = given === undefined ? undefined : given instanceof Float64Array ? given : Float64Array.from(given);
  const timeOf = (): Float64Array => (t ??= barIndex(n));
  let trades: Trade[] | undefined;
  let costs: CostBreakdown | undefined;
  let manifest: Manifest | undefined;
  let metrics: BacktestMetrics | undefined;
  const partialLastBar = partialLastBarOf(options.data);
  const fields: Omit<BacktestResult, "metrics"> = {
    get time(): Float64Array {
      return timeOf();
    },
    get equity(): Float64Array {
      return seriesOf("equity");
    },
    get returns(): Float64Array {
      return seriesOf("returns");
    },
    get positions(): Float64Array {
      return positionsOf();
    },
    get exposure(): Float64Array {
      return seriesOf("exposure");
    },
    get holdings(): Float64Array {
      return seriesOf("holdings");
    },
    get turnover(): Float64Array {
      return seriesOf("turnover");
    },
    get fees(): Float64Array {
      return seriesOf("fees");
    },
    get fundingPaid(): Float64Array {
      return seriesOf("fundingPaid");
    },
    get trades(): Trade[] {
      return (trades ??= ledger().toTrades(timeOf(), [options.coin]));
    },
    get costs(): CostBreakdown {
      return (costs ??= costBreakdown(result.trades));
    },
    capped: primary.capped,
    ruinIndex: primary.ruinIndex,
    partialLastBar,
    toDataFrame(): DataFrame {
      return toDataFrame(backtestColumns(result));
    },
    get manifest(): Manifest {
      // Targets given as the position are recorded as the column they stand for (what a replay of the manifest passes).
      const position = options.position;
      // Where the series were written (`into`) is not an input of the run.
      const { into: _into, ...inputs } = options;
      const recorded = position !== undefined && !("length" in position) ? { ...inputs, position: position.positions } : inputs;
      return (manifest ??= createManifest({ kind: "backtest", options: recorded as unknown as Readonly<Record<string, unknown>>, result: backtestColumns(result) }));
    },
    toParquet(path: string, parquetOptions?: WriteParquetOptions): Promise<void> {
      return toParquet(result, path, parquetOptions);
    },
    tradesToDataFrame(): DataFrame {
      return tradesFrame(result.trades);
    },
  };
  const result = fields as BacktestResult;
  // Not enumerable: a spread or a deep comparison of the result does not compute it (nor throw without periodsPerYear or time).
  Object.defineProperty(result, "metrics", {
    get(): BacktestMetrics {
      if (metrics !== undefined) return metrics;
      // periodsPerYear was checked by prepareBacktest: only its inference from the times is left for here
      const ppy = periodsPerYear ?? periodsPerYearOf(given !== undefined ? { time: given } : {}, "backtest metrics");
      totals ??= runPass(rule, coin, { ...settings, accumulate: true }, exec.delayBars, NO_SERIES, newLedger(), undefined).state;
      return (metrics = Object.freeze(runMetrics(totals, n, exec.initialCash, ppy)));
    },
  });
  return withInspect(result, () =>
    backtestText({ kind: "BacktestResult", time: given, bars: n, first: exec.initialCash, last: primary.state.equity, state: primary.state, partialLastBar }),
  );
}

/** The per-bar series the kernel writes, by result field. */
const SERIES = INTO_SERIES;
type SeriesName = IntoSeries;
/** The series besides equity, computed together on first access. */
const SECONDARY = ["returns", "exposure", "holdings", "turnover", "fees", "fundingPaid"] as const;

/** Where a pass writes the series given (by result field; the others not written). */
function seriesOut(s: Readonly<Record<string, Float64Array | undefined>>): KernelSeries {
  const units = s["holdings"];
  return {
    base: 0,
    equity: s["equity"],
    returns: s["returns"],
    turnover: s["turnover"],
    exposure: s["exposure"],
    fees: s["fees"],
    fundingPaid: s["fundingPaid"],
    units: units === undefined ? undefined : [units],
    weights: undefined,
  };
}

/** A backtest's inputs checked and resolved: what one pass of the engine runs on. @internal */
export interface PreparedBacktest {
  readonly n: number;
  readonly close: ArrayLike<number>;
  /** Bar times as given (undefined: the bar index). */
  readonly time: ArrayLike<number> | undefined;
  readonly exec: Execution;
  readonly rule: TargetRule;
  readonly coin: KernelCoin;
  readonly settings: KernelSettings;
  /** What the first pass computes (`outputs`, or the default). */
  readonly outputs: ReadonlySet<BacktestOutput>;
  /** `periodsPerYear` checked, when given (else inferred from `time` when metrics are read). */
  readonly periodsPerYear: number | undefined;
}

/**
 * Check and resolve backtest options (columns from `data`, lengths, prices, execution,
 * funding, the target rule): everything {@link backtest} validates before its pass, in one
 * place, so a sweep's variant is validated and run exactly as `backtest` would run it.
 * @internal
 */
export function prepareBacktest(options: BacktestOptions, where: string): PreparedBacktest {
  // `options` is an object checked by checkOptions (backtest) or built by a sweep from checked parts
  const data = options.data;
  const pick = (name: "time" | "close" | "open" | "high" | "low"): ArrayLike<number> | undefined =>
    options[name] ?? (data !== undefined ? tableColumn(data, name, where) : undefined);
  const close = pick("close");
  if (close === undefined) {
    throw new InvalidArgumentError("close", `${where}: close prices are required (pass close, or data with a close column)`);
  }
  const n = close.length;
  const given = pick("time");
  const open = pick("open");
  const high = pick("high");
  const low = pick("low");
  checkLength("close", close, n, where);
  checkLength("time", given, n, where);
  checkLength("open", open, n, where);
  checkLength("high", high, n, where);
  checkLength("low", low, n, where);
  checkLength("spreadBps", options.spreadBps, n, where);
  const exec = resolveExecution(options, where);
  if (given !== undefined) checkExecution(given, where);
  const funding = fundingColumn(options.funding ?? (data !== undefined ? tableColumn(data, "funding", where) : undefined), given, n, where);
  if (exec.nextOpen) {
    if (open === undefined) throw new InvalidArgumentError("open", `${where}: fill "next_open" needs open prices (pass open, or data with an open column)`);
    checkPrices("open", open, where);
  }
  checkIntrabarPrices(exec, open, high, low, where);
  const impact = options.impact === undefined ? undefined : impactScale(close, options.impact, where);
  const rule = resolveTargets(options, n, where);
  const coin = kernelCoin({ close, open, funding, spreadBps: options.spreadBps, high, low, impact });
  const settings = kernelSettings(exec, n);
  const periodsPerYear = options.periodsPerYear !== undefined ? periodsPerYearOf({ periodsPerYear: options.periodsPerYear }, where) : undefined;
  return { n, close, time: given, exec, rule, coin, settings, outputs: resolveOutputs(options.outputs, where), periodsPerYear };
}

/** The `outputs` option checked: a list of BACKTEST_OUTPUTS names (default DEFAULT_OUTPUTS). */
function resolveOutputs(outputs: readonly BacktestOutput[] | undefined, where: string): ReadonlySet<BacktestOutput> {
  if (outputs === undefined) return new Set(DEFAULT_OUTPUTS);
  if (!Array.isArray(outputs)) {
    throw new InvalidArgumentError("outputs", `${where}: outputs must be a list of ${BACKTEST_OUTPUTS.join(", ")} (e.g. ["metrics"] for the summary only), got ${String(outputs)}`);
  }
  for (const o of outputs) {
    if (!(BACKTEST_OUTPUTS as readonly unknown[]).includes(o)) {
      throw new InvalidArgumentError("outputs", `${where}: outputs must name ${BACKTEST_OUTPUTS.join(", ")}, got ${JSON.stringify(o)}`);
    }
  }
  return new Set(outputs);
}

/** Bars per block of a pass: the block's targets (and a composite's block buffers) stay in cache. */
const BLOCK = 2048;

/**
 * One run of the engine over every bar, block by block: prices checked, targets by the
 * target rule into a reused block buffer, delayed by `delayBars` (latency), carried over
 * bars without a price, then the kernel; a composite replay given as the signal (with no
 * latency; any sizing, with or without a regime filter) is computed inside the kernel's generated loop
 * instead (compositeTargets: scores, composite, label and target rule in the same pass, no
 * block buffer), and so are a position column (positionTargets) and a column of signal values
 * (signalColumnTargets) under the same conditions, with the same numbers; only `delayBars`
 * (and a signal computed by block other than a replay) takes the block pipeline. Returns the run's final state (its accumulators:
 * final equity, sums of the returns and their squares, max drawdown, round trips, turnover,
 * exposure) and how often the leverage cap bound. A sweep variant is one pass with
 * NO_SERIES: nothing of length n.
 * @internal
 */
export function runPass(rule: TargetRule, coin: KernelCoin, settings: KernelSettings, delayBars: number, out: KernelSeries, log: TradeLog | undefined, where: string | undefined): { ruinIndex: number; capped: number; state: KernelState } {
  const n = settings.n;
  const model = replayModel(rule.blocks);
  const fused = delayBars === 0 && n > 0 && (model !== undefined || rule.position !== undefined || rule.signal !== undefined);
  // A fused pass checks the closes (when `where` is given) as its generated loop reads them
  // (KernelSettings.checkClose: one read of the column instead of two) when they are a Float64Array,
  // which holds numbers only; any other column (a plain array may hold a string) is checked first.
  const inLoop = fused && where !== undefined && coin.close instanceof Float64Array;
  if (fused && where !== undefined && !inLoop) checkPrices("close", coin.close, where);
  const st = new KernelState(1, inLoop ? withCheckClose(settings, where) : settings, log);
  if (model !== undefined && delayBars === 0 && n > 0) {
    // A composite replay as the signal: its scorers, composite, label and the target rule in the
    // kernel's own generated loop (compositeTargets), the same numbers as the block pipeline below.
    const { signal, params } = compositeTargets({
      cols: model.cols,
      fns: model.fns,
      vectors: [{ order: model.cols.map((_, j) => j), weights: model.weights }],
      policy: model.policy,
      of: [0],
      thresholds: [model.threshold],
      rule,
    });
    runVariants([st], coin, signal, params, 0, n, out);
    return { ruinIndex: st.ruinIndex, capped: rule.countsCapped ? (params.capped[0] as number) : 0, state: st };
  }
  if (rule.position !== undefined && delayBars === 0 && n > 0) {
    // A column of target positions: read, sized, filtered, capped and carried in the kernel's generated loop
    // (positionTargets), the same numbers as the block pipeline below without its buffer.
    const { signal, params } = positionTargets(rule.position, rule);
    runVariants([st], coin, signal, params, 0, n, out);
    return { ruinIndex: st.ruinIndex, capped: rule.countsCapped ? (params.capped[0] as number) : 0, state: st };
  }
  if (rule.signal !== undefined && delayBars === 0 && n > 0) {
    // A column of signal values: the same, through the held side (signalColumnTargets).
    const { signal, params } = signalColumnTargets(rule.signal, rule);
    runVariants([st], coin, signal, params, 0, n, out);
    return { ruinIndex: st.ruinIndex, capped: rule.countsCapped ? (params.capped[0] as number) : 0, state: st };
  }
  const stream = new TargetStream();
  const buf = new Float64Array(Math.min(n, BLOCK));
  const targets = [buf];
  const coins = [coin];
  const delay = delayBars > 0 ? new TargetDelay(delayBars) : undefined;
  for (let lo = 0; lo < n; lo += BLOCK) {
    const hi = Math.min(n, lo + BLOCK);
    if (where !== undefined) checkPrices("close", coin.close, where, lo, hi);
    blockTargetsInto(rule, stream, delay, coin.close, lo, hi, buf);
    runKernel(st, coins, targets, lo, lo, hi, out);
  }
  return { ruinIndex: st.ruinIndex, capped: rule.countsCapped ? stream.capped : 0, state: st };
}

/** 0, 1, ..., n-1: the bar index, used as time when none is given. */
function barIndex(n: number): Float64Array {
  const t = new Float64Array(n);
  for (let i = 0; i < n; i++) t[i] = i;
  return t;
}
