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
import type { Trade } from "./Trade.js";
import { checkExecution, checkIntrabarPrices, checkPrices, fundingColumn, kernelSettings, resolveExecution, type ExecutionOptions } from "./execution.js";
import { impactScale, type ImpactOptions } from "./marketImpact.js";
import type { FundingSchedule } from "./settlementFunding.js";
import { TargetDelay } from "./TargetDelay.js";
import { KernelState } from "./kernel/KernelState.js";
import { kernelCoin, runKernel, type KernelCoin } from "./kernel/runKernel.js";
import { TradeLog } from "./TradeLog.js";
import { carryOnMissingPrice, checkLength, targetPositions, TargetStream, type TargetOptions } from "./targetPositions.js";

/** One coin of a portfolio: its prices and its own strategy (position or signal, sizing, filter). */
export interface PortfolioCoin extends Omit<TargetOptions, "maxLeverage"> {
  readonly close: ArrayLike<number>;
  readonly open?: ArrayLike<number>;
  /** High and low: needed (with open) by stopLoss, takeProfit and maintenanceMargin. */
  readonly high?: ArrayLike<number>;
  readonly low?: ArrayLike<number>;
  /** Per-bar funding rate, or settlements `{ rate, intervalMs }` / `{ rate, times }` (see backtest). */
  readonly funding?: ArrayLike<number> | FundingSchedule;
  readonly spreadBps?: ArrayLike<number>;
  /** This coin's square-root market impact (see ImpactOptions). */
  readonly impact?: ImpactOptions;
  /** Cap on this coin's own |position| before its portfolio weight is applied. Default none. */
  readonly maxLeverage?: number;
}

/** Options of {@link backtestPortfolio}. */
export interface PortfolioOptions extends Omit<ExecutionOptions, "spreadBps" | "impact"> {
  /** Epoch ms of each bar, shared by every coin (align them first, e.g. with alignAsOf). */
  readonly time: ArrayLike<number>;
  /** The coins, by name. */
  readonly coins: Readonly<Record<string, PortfolioCoin>>;
  /** Share of equity per coin (the coin's position is multiplied by it). Default 1 / number of coins. */
  readonly weights?: Readonly<Record<string, number>>;
  /** Cap on gross exposure, sum over coins of |weight x position|; scaled down proportionally. Default 1. */
  readonly maxLeverage?: number;
}

/** Per-coin series of a portfolio backtest. */
export interface PortfolioCoinSeries {
  /** Target weight in the portfolio decided at each close (coin weight x position, after the gross cap). */
  readonly positions: Float64Array;
  /** Weight held at each close (units x close / equity). */
  readonly exposure: Float64Array;
  /** Units held at each close. */
  readonly holdings: Float64Array;
}

/** What {@link backtestPortfolio} returns: the account's series plus each coin's. */
export interface PortfolioResult extends Omit<BacktestResult, "holdings" | "metrics" | "partialLastBar"> {
  /** Per coin: positions, exposure and holdings. `positions` and `exposure` of the account are their net sums. */
  readonly coins: Readonly<Record<string, PortfolioCoinSeries>>;
}

/**
 * Backtest several coins sharing one capital. Each coin's target position comes from
 * its own `position` or `signal` (with its own sizing and regime filter, as in
 * {@link targetPositions}), is multiplied by its portfolio weight, and the gross
 * exposure sum_k |W_k,i| is capped at `maxLeverage` (all coins scaled by the same factor).
 * The account then follows backtest()'s semantics coin by coin, with one cash balance:
 * `r_{i+1} = sum_k [ W_k,i R_k,i+1 - c |W_k,i - W_k,i-1| - W_k,i f_k,i+1 ]` by default.
 * A coin with a NaN price on a bar is not traded there (its position carried) while the
 * others trade. Trades carry the coin's name.
 * @throws InvalidArgumentError on no coins, unequal lengths, unknown or negative weights, or bad options
 * @example
 * const r = backtestPortfolio({ time: [0, 1], coins: { BTC: { close: [100, 110], position: [1, 1] }, ETH: { close: [10, 9], position: [1, 1] } }, initialCash: 1000 });
 * r.equity[1] // 1000 * (1 + 0.5 * 0.1 + 0.5 * -0.1) = 1000
 */
export function backtestPortfolio(options: PortfolioOptions): PortfolioResult {
  const where = "backtestPortfolio";
  if (typeof options !== "object" || options === null || typeof options.coins !== "object" || options.coins === null) {
    throw new InvalidArgumentError("coins", `${where}: coins must be an object like { BTC: { close, position }, ETH: { ... } }`);
  }
  const names = Object.keys(options.coins);
  if (names.length === 0) throw new InvalidArgumentError("coins", `${where}: coins must name at least one coin, got none`);
  const time = options.time;
  if (time === undefined) throw new InvalidArgumentError("time", `${where}: time is required (epoch ms, shared by every coin)`);
  checkLength("time", time, time.length, where);
  const n = time.length;
  checkExecution(time, where);
  const exec = resolveExecution(options, where);
  const weights = options.weights ?? Object.fromEntries(names.map((k) => [k, 1 / names.length]));
  for (const k of Object.keys(weights)) {
    if (!names.includes(k)) throw new InvalidArgumentError("weights", `${where}: weights names ${k}, which is not among the coins (${names.join(", ")})`);
  }
  const maxLev = options.maxLeverage ?? 1;
  if (typeof maxLev !== "number" || Number.isNaN(maxLev) || maxLev <= 0) {
    throw new InvalidArgumentError("maxLeverage", `${where}: maxLeverage must be a number > 0 (Infinity for no cap), got ${String(maxLev)}`);
  }

  const sims: KernelCoin[] = [];
  const targets: Float64Array[] = [];
  for (const name of names) {
    const c = options.coins[name] as PortfolioCoin;
    const w = weights[name] ?? 0;
    if (typeof w !== "number" || !Number.isFinite(w) || w < 0) {
      throw new InvalidArgumentError("weights", `${where}: weight of ${name} must be a finite number >= 0, got ${String(w)}`);
    }
    const cw = `${where} (${name})`;
    if (c === undefined || typeof c !== "object" || c.close === undefined) throw new InvalidArgumentError("coins", `${cw}: close prices are required`);
    checkLength("close", c.close, n, cw);
    checkLength("open", c.open, n, cw);
    checkLength("high", c.high, n, cw);
    checkLength("low", c.low, n, cw);
    checkLength("spreadBps", c.spreadBps, n, cw);
    checkPrices("close", c.close, cw);
    if (exec.nextOpen) {
      if (c.open === undefined) throw new InvalidArgumentError("open", `${cw}: fill "next_open" needs open prices for every coin`);
      checkPrices("open", c.open, cw);
    }
    checkIntrabarPrices(exec, c.open, c.high, c.low, cw);
    const funding = fundingColumn(c.funding, time, n, cw);
    const impact = c.impact === undefined ? undefined : impactScale(c.close, c.impact, cw);
    const { positions } = targetPositions({ ...c, maxLeverage: c.maxLeverage ?? Number.POSITIVE_INFINITY }, n, cw);
    for (let i = 0; i < n; i++) positions[i] = (positions[i] as number) * w;
    sims.push(kernelCoin({ close: c.close, open: c.open, funding, spreadBps: c.spreadBps, high: c.high, low: c.low, impact }));
    targets.push(positions);
  }
  // Gross leverage cap, then carry each coin's target over its missing prices.
  let capped = 0;
  for (let i = 0; i < n; i++) {
    let gross = 0;
    for (const t of targets) gross += Math.abs(t[i] as number);
    if (gross > maxLev * (1 + 1e-12)) {
      capped++;
      const f = maxLev / gross;
      for (const t of targets) t[i] = (t[i] as number) * f;
    }
  }
  // What the kernel fills: the targets delayed by delayBars (positions stay the decisions), carried over missing prices.
  const fills = exec.delayBars > 0 ? targets.map((t) => t.slice()) : targets;
  if (exec.delayBars > 0) for (const t of fills) new TargetDelay(exec.delayBars).delayInto(t, 0, n);
  sims.forEach((s, k) => carryOnMissingPrice(targets[k] as Float64Array, s.close, 0, n, 0, new TargetStream()));
  if (fills !== targets) sims.forEach((s, k) => carryOnMissingPrice(fills[k] as Float64Array, s.close, 0, n, 0, new TargetStream()));

  const fresh = (): Float64Array => new Float64Array(n);
  const sim = {
    equity: fresh(),
    returns: fresh(),
    turnover: fresh(),
    exposure: fresh(),
    fees: fresh(),
    fundingPaid: fresh(),
    units: sims.map(fresh),
    weights: sims.map(fresh),
  };
  const log = new TradeLog(exec.feeBps, exec.slippageBps);
  const state = new KernelState(sims.length, kernelSettings(exec, n), log);
  runKernel(state, sims, fills, 0, 0, n, { base: 0, ...sim });
  const positions = new Float64Array(n);
  const coins: Record<string, PortfolioCoinSeries> = {};
  targets.forEach((target, k) => {
    for (let i = 0; i < n; i++) positions[i] = (positions[i] as number) + (target[i] as number);
    coins[names[k] as string] = { positions: target, exposure: sim.weights[k] as Float64Array, holdings: sim.units[k] as Float64Array };
  });
  const t = time instanceof Float64Array ? time : Float64Array.from(time);
  let trades: Trade[] | undefined;
  let costs: CostBreakdown | undefined;
  let manifest: Manifest | undefined;
  const result: PortfolioResult = {
    time: t,
    equity: sim.equity,
    returns: sim.returns,
    positions,
    exposure: sim.exposure,
    turnover: sim.turnover,
    fees: sim.fees,
    fundingPaid: sim.fundingPaid,
    get trades(): Trade[] {
      return (trades ??= log.toTrades(t, names));
    },
    get costs(): CostBreakdown {
      return (costs ??= costBreakdown(result.trades));
    },
    capped,
    ruinIndex: state.ruinIndex,
    coins,
    toDataFrame(): DataFrame {
      return toDataFrame(backtestColumns(result));
    },
    tradesToDataFrame(): DataFrame {
      return tradesFrame(result.trades);
    },
    get manifest(): Manifest {
      return (manifest ??= createManifest({ kind: "portfolio", options: options as unknown as Readonly<Record<string, unknown>>, result: backtestColumns(result) }));
    },
    toParquet(path: string, parquetOptions?: WriteParquetOptions): Promise<void> {
      return toParquet(result, path, parquetOptions);
    },
  };
  return withInspect(result, () => backtestText({ kind: "PortfolioResult", time: t, bars: sim.equity.length, first: sim.equity[0] as number, last: sim.equity[sim.equity.length - 1] as number, state, coins: names }));
}
