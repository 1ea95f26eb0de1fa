import type { BacktestResult } from "../../backtest/BacktestResult.js";
import { backtest } from "../../backtest/backtest.js";
import { buyAndHold } from "../../backtest/buyAndHold.js";
import { fundingPerBar } from "../../backtest/fundingPerBar.js";
import { alignAsOf } from "../../data/alignAsOf.js";
import { loadRealCandles } from "../../load/loadRealCandles.js";
import { loadRealFunding } from "../../load/loadRealFunding.js";
import { icDecay } from "../../metrics/icDecay.js";
import type { MetricsTable } from "../../metrics/MetricsTable.js";
import { performanceSummary, type PerformanceSummary } from "../../metrics/performanceSummary.js";
import { componentsFromFeeds } from "../../signals/componentsFromFeeds.js";
import { replayComposite, type CompositeReplay } from "../../signals/replayComposite.js";
import type { StudyOptions } from "./runStudy.js";

const HOUR = 3_600_000;
const BAR = 4 * HOUR;

/** The real-data study: Coinbase BTC-USD 4h candles with Hyperliquid BTC funding and mark price. */
export interface RealDataStudy {
  /** Bar close times (epoch ms) and closes. */
  readonly time: Float64Array;
  readonly close: Float64Array;
  readonly replay: CompositeReplay;
  readonly result: BacktestResult;
  readonly buyHold: Float64Array;
  readonly summary: PerformanceSummary;
  readonly feesPaid: number;
  readonly fundingPaid: number;
  readonly ic: MetricsTable;
  /** Mean hourly funding rate over the period (decimal). */
  readonly meanFunding: number;
  /** Share of bars whose hourly funding rate was positive (longs paying). */
  readonly positiveFundingShare: number;
}

/**
 * Replay the composite on real public data, offline: Coinbase BTC-USD 4-hour
 * candles (`coinbase-btc-4h`) over the window of Hyperliquid's BTC funding
 * record (`hyperliquid-btc-2024`, 2024-01-01 .. 2024-02-15). Only three
 * components can be derived from these feeds: funding (Hyperliquid's hourly
 * rate), basis (Hyperliquid mark vs Coinbase spot, bps) and momentum (here the
 * last 4-hour return, fed to the 5-minute momentum scorer); imbalance and gas
 * are missing and their weight is renormalised away. Each bar is stamped at its
 * close (candle open + 4 h); the mark price stamped t is known at t + 1 h
 * (see loadRealFunding). Backtested with the study's costs and rule, funding
 * charged at the real hourly rates.
 */
export function runRealDataStudy(options: Pick<StudyOptions, "threshold" | "feeBps" | "slippageBps" | "shorts" | "initialCash" | "fill">): RealDataStudy {
  const candles = loadRealCandles("coinbase-btc-4h");
  const hl = loadRealFunding("hyperliquid-btc-2024");
  const fStart = hl.time[0] as number;
  const fEnd = (hl.time[hl.time.length - 1] as number) + HOUR;
  const idx: number[] = [];
  for (let i = 0; i < candles.time.length; i++) {
    const closeAt = (candles.time[i] as number) + BAR;
    if (closeAt >= fStart + HOUR && closeAt <= fEnd) idx.push(i);
  }
  const time = Float64Array.from(idx, (i) => (candles.time[i] as number) + BAR);
  const close = Float64Array.from(idx, (i) => candles.columns["close"]![i] as number);
  const open = Float64Array.from(idx, (i) => candles.columns["open"]![i] as number);
  const feeds = alignAsOf(time, [
    { time: hl.time, columns: { fundingRate: hl.columns["funding"] as Float64Array }, fill: "last", maxStalenessMs: 2 * HOUR },
    { time: hl.time, columns: { perpPrice: hl.columns["mark_price"] as Float64Array }, knownAfterMs: HOUR, fill: "last", maxStalenessMs: 2 * HOUR },
  ]);
  const fundingRate = feeds.columns["fundingRate"] as Float64Array;
  const components = componentsFromFeeds({ time, fundingRate, perpPrice: feeds.columns["perpPrice"] as Float64Array, spotPrice: close, price: close }, { momentumMs: BAR });
  const missing = new Float64Array(time.length).fill(Number.NaN);
  const replay = replayComposite(
    { time, imbalance: missing, gas: missing, funding: components.funding ?? missing, basis_spread: components.basis_spread ?? missing, momentum_5m: components.momentum_5m ?? missing },
    { threshold: options.threshold, missing: "renormalise" },
  );
  const funding = fundingPerBar(time, fundingRate);
  const result = backtest({
    time,
    close,
    open,
    funding,
    coin: "BTC",
    signal: replay.label,
    shorts: options.shorts,
    feeBps: options.feeBps,
    slippageBps: options.slippageBps,
    fill: options.fill,
    initialCash: options.initialCash,
  });
  const buyHold = buyAndHold(close, { initialCash: options.initialCash });
  let fees = 0;
  let paid = 0;
  for (let i = 0; i < time.length; i++) {
    fees += result.fees[i] as number;
    const f = result.fundingPaid[i] as number;
    if (f === f) paid += f;
  }
  let sumRate = 0;
  let nRate = 0;
  let positive = 0;
  for (const r of fundingRate) {
    if (r !== r) continue;
    sumRate += r;
    nRate++;
    if (r > 0) positive++;
  }
  return {
    time,
    close,
    replay,
    result,
    buyHold,
    summary: performanceSummary(result.returns, { periodsPerYear: 6 * 365, trades: result.trades, positions: result.positions, exposure: result.exposure, turnover: result.turnover }),
    feesPaid: fees,
    fundingPaid: paid,
    ic: icDecay(replay.composite, close, { horizons: [1, 2, 3, 6, 12] }),
    meanFunding: nRate > 0 ? sumRate / nRate : Number.NaN,
    positiveFundingShare: nRate > 0 ? positive / nRate : Number.NaN,
  };
}
