import type { BacktestResult } from "../../backtest/BacktestResult.js";
import { backtest } from "../../backtest/backtest.js";
import { backtestPortfolio, type PortfolioResult } from "../../backtest/backtestPortfolio.js";
import { fundingPerBar } from "../../backtest/fundingPerBar.js";
import { buyAndHold } from "../../backtest/buyAndHold.js";
import type { Sizing } from "../../backtest/targetPositions.js";
import { alignAsOf } from "../../data/alignAsOf.js";
import type { Coin } from "../../domain/coins.js";
import { InvalidArgumentError } from "../../errors/InvalidArgumentError.js";
import { componentAttribution, type ComponentAttribution } from "../../metrics/componentAttribution.js";
import { forwardReturns } from "../../metrics/forwardReturns.js";
import { icDecay } from "../../metrics/icDecay.js";
import type { MetricsTable } from "../../metrics/MetricsTable.js";
import { metricsByRegime, type RegimeTable } from "../../metrics/metricsByRegime.js";
import { performanceSummary, type PerformanceSummary } from "../../metrics/performanceSummary.js";
import { marketRegimes, type MarketRegimeSeries } from "../../signals/marketRegime.js";
import { replayComposite, type CompositeReplay } from "../../signals/replayComposite.js";
import { classifyVolRegimes } from "../../signals/volRegime.js";
import { DEFAULT_WEIGHTS, type Weights } from "../../signals/weights.js";
import type { StudyData } from "./loadStudyData.js";
import { coinBars, studyGrid } from "./studyBars.js";

/** How the composite study trades. Every field has a default in {@link DEFAULT_STUDY}. */
export interface StudyOptions {
  readonly coins: readonly Coin[];
  /** Bar size in minutes: the signal is read and the position set at each bar's close. */
  readonly barMinutes: number;
  /** Composite weights [the service's DEFAULT_WEIGHTS]. */
  readonly weights?: Weights | undefined;
  /** |composite| below this is neutral (flat). */
  readonly threshold: number;
  /** Taker fee and slippage, bps of traded notional. */
  readonly feeBps: number;
  readonly slippageBps: number;
  readonly fill: "next_close" | "next_open";
  readonly units: "fractional" | "whole";
  /** "fixed": full size; "confidence": size x the composite's confidence. */
  readonly sizing: "fixed" | "confidence";
  /** Sell signals go short (true) or flat (false). */
  readonly shorts: boolean;
  /** Stay flat while the coin's 24h realized volatility is in the extreme regime (>= 90% annualised). */
  readonly regimeFilter: boolean;
  /** Charge perpetual funding on positions. */
  readonly funding: boolean;
  readonly initialCash: number;
  /** Forward horizons of the IC decay, in bars. */
  readonly icHorizons: readonly number[];
}

/** The demo's defaults: hourly bars, realistic taker costs, funding charged, flat in extreme volatility. */
export const DEFAULT_STUDY: StudyOptions = Object.freeze({
  coins: ["BTC", "ETH", "SOL", "HYPE"] as const,
  barMinutes: 60,
  threshold: 0.1,
  feeBps: 5,
  slippageBps: 1,
  fill: "next_close",
  units: "fractional",
  sizing: "fixed",
  shorts: true,
  regimeFilter: true,
  funding: true,
  initialCash: 100_000,
  icHorizons: [1, 2, 4, 8, 16, 32],
});

/** One coin's study. */
export interface CoinStudy {
  readonly coin: Coin;
  /** Bar close times (epoch ms) and prices. */
  readonly time: Float64Array;
  readonly close: Float64Array;
  /** Funding charged per bar (decimal; 0 when funding is off). */
  readonly funding: Float64Array;
  readonly replay: CompositeReplay;
  /** 24h realized volatility (annualised %) and its regime code (0 low, 1 normal, 2 high, 3 extreme, -1 unknown). */
  readonly vol: Float64Array;
  readonly volRegime: Int8Array;
  readonly result: BacktestResult;
  /** Equity of buying and holding the coin with the same cash (no costs, no funding). */
  readonly buyHold: Float64Array;
  readonly summary: PerformanceSummary;
  readonly feesPaid: number;
  readonly fundingPaid: number;
  /** IC of the composite against forward returns per horizon (bars). */
  readonly ic: MetricsTable;
  /** IC contribution of each component (1-bar forward returns); undefined with fewer than two weighted components. */
  readonly attribution: ComponentAttribution | undefined;
  /** Strategy metrics per volatility regime (regime known when the position was taken). */
  readonly byVolRegime: RegimeTable;
  /** Buy and hold per volatility regime, for comparison. */
  readonly buyHoldByVolRegime: RegimeTable;
}

/** The four-coin portfolio sharing one capital. */
export interface PortfolioStudy {
  readonly result: PortfolioResult;
  readonly buyHold: Float64Array;
  readonly summary: PerformanceSummary;
  readonly feesPaid: number;
  readonly fundingPaid: number;
  /** Market regime per bar from the coins' composites, volatility regimes and funding (-1 risk_off, 0 neutral, 1 risk_on). */
  readonly marketRegime: MarketRegimeSeries;
  readonly byMarketRegime: RegimeTable;
  /** Buy and hold per market regime, for comparison. */
  readonly buyHoldByMarketRegime: RegimeTable;
}

/** Everything the scorecard and the report show. */
export interface Study {
  readonly options: StudyOptions;
  readonly time: Float64Array;
  readonly periodsPerYear: number;
  readonly coins: Readonly<Partial<Record<Coin, CoinStudy>>>;
  readonly portfolio: PortfolioStudy | undefined;
}

function sum(a: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) {
    const v = a[i] as number;
    if (v === v) s += v;
  }
  return s;
}

/** Simple returns of an equity curve, NaN at bar 0 (as a backtest's). */
function returnsOf(equity: Float64Array): Float64Array {
  const out = new Float64Array(equity.length).fill(Number.NaN);
  for (let i = 1; i < equity.length; i++) out[i] = (equity[i] as number) / (equity[i - 1] as number) - 1;
  return out;
}

/** Check study options; the CLI's parsers catch most of this first. */
export function checkStudyOptions(o: StudyOptions): void {
  if (o.coins.length === 0) throw new InvalidArgumentError("coins", "study: coins must name at least one of BTC, ETH, SOL, HYPE");
  if (!Number.isInteger(o.barMinutes) || o.barMinutes < 1 || o.barMinutes > 1440) {
    throw new InvalidArgumentError("barMinutes", `study: bar size must be a whole number of minutes 1..1440, got ${o.barMinutes}`);
  }
  if (!(o.threshold >= 0 && o.threshold <= 1)) throw new InvalidArgumentError("threshold", `study: threshold must be in [0, 1], got ${o.threshold}`);
}

/**
 * The composite study: sample one-minute history onto bars, replay the
 * composite (weights and threshold as given) and the volatility regime rule,
 * backtest each coin on its own and all coins as one portfolio with fees,
 * slippage and funding, and evaluate the signal (IC decay, component
 * attribution, returns by regime). Causal throughout: each bar uses data up
 * to its close only.
 * @throws InvalidArgumentError on bad options or when the history is too short for two bars
 */
export function runStudy(data: StudyData, options: StudyOptions): Study {
  checkStudyOptions(options);
  const grid = studyGrid(data, options.barMinutes);
  const { time, barMs, periodsPerYear } = grid;
  const n = time.length;
  const t = data.time;

  const coins: Partial<Record<Coin, CoinStudy>> = {};
  const portfolioCoins: Record<string, Parameters<typeof backtestPortfolio>[0]["coins"][string]> = {};
  const composites: Record<string, Float64Array> = {};
  const regimes: Record<string, ArrayLike<number>> = {};
  const fundingRates: Record<string, Float64Array> = {};
  for (const coin of options.coins) {
    const c = coinBars(data, coin, grid);
    const close = c["close"] as Float64Array;
    const open = options.fill === "next_open" ? (alignAsOf(Float64Array.from(time, (x) => x - barMs + 60_000), [{ time: t, columns: { open: data.columns[`${coin.toLowerCase()}_price`] ?? new Float64Array(t.length).fill(Number.NaN) }, fill: "last", maxStalenessMs: barMs }]).columns["open"] as Float64Array) : undefined;
    const replay = replayComposite(
      { time, imbalance: c["imbalance"] as Float64Array, funding: c["funding"] as Float64Array, basis_spread: c["basis_spread"] as Float64Array, momentum_5m: c["momentum_5m"] as Float64Array, gas: c["gas"] as Float64Array },
      { ...(options.weights !== undefined ? { weights: options.weights } : {}), threshold: options.threshold },
    );
    const vol = c["vol"] as Float64Array;
    const volRegime = classifyVolRegimes(vol);
    const funding = options.funding ? fundingPerBar(time, c["fundingRate"] as Float64Array) : new Float64Array(n);
    const sizing: Sizing = options.sizing === "confidence" ? { by: "confidence", confidence: replay.confidence } : { by: "fixed" };
    const flatWhen = options.regimeFilter ? Uint8Array.from(volRegime, (r) => (r === 3 ? 1 : 0)) : undefined;
    const strategy = { signal: replay.label, shorts: options.shorts, sizing, ...(flatWhen !== undefined ? { flatWhen } : {}) };
    const result = backtest({
      time,
      close,
      ...(open !== undefined ? { open } : {}),
      funding,
      coin,
      ...strategy,
      feeBps: options.feeBps,
      slippageBps: options.slippageBps,
      fill: options.fill,
      units: options.units,
      initialCash: options.initialCash,
    });
    portfolioCoins[coin] = { close, ...(open !== undefined ? { open } : {}), funding, ...strategy };
    composites[coin] = replay.composite;
    regimes[coin] = volRegime;
    fundingRates[coin] = c["fundingRate"] as Float64Array;
    const fwd1 = forwardReturns(close, { horizons: [1] })["1 bar"] as Float64Array;
    const buyHold = buyAndHold(close, { initialCash: options.initialCash });
    const volCodes = Float64Array.from(volRegime, (r) => (r < 0 ? Number.NaN : r));
    coins[coin] = {
      coin,
      time,
      close,
      funding,
      replay,
      vol,
      volRegime,
      result,
      buyHold,
      summary: performanceSummary(result.returns, { periodsPerYear, trades: result.trades, positions: result.positions, exposure: result.exposure, turnover: result.turnover }),
      feesPaid: sum(result.fees),
      fundingPaid: sum(result.fundingPaid),
      ic: icDecay(replay.composite, close, { horizons: options.icHorizons }),
      attribution:
        Object.keys(options.weights ?? DEFAULT_WEIGHTS).length >= 2
          ? componentAttribution(replay.scores, fwd1, { ...(options.weights !== undefined ? { weights: options.weights } : {}) })
          : undefined,
      byVolRegime: metricsByRegime(result.returns, { by: { volRegime: volCodes }, periodsPerYear, trades: result.trades }),
      buyHoldByVolRegime: metricsByRegime(returnsOf(buyHold), { by: { volRegime: volCodes }, periodsPerYear }),
    };
  }

  let portfolio: PortfolioStudy | undefined;
  if (options.coins.length > 1) {
    const result = backtestPortfolio({
      time,
      coins: portfolioCoins,
      feeBps: options.feeBps,
      slippageBps: options.slippageBps,
      fill: options.fill,
      units: options.units,
      initialCash: options.initialCash,
    });
    // Bought once in equal shares and never rebalanced (not a constant mix).
    const buyHold = buyAndHold(Object.fromEntries(options.coins.map((c) => [c, (coins[c] as CoinStudy).close])), { initialCash: options.initialCash });
    const marketRegime = marketRegimes({ composite: composites, volRegime: regimes, funding: fundingRates });
    portfolio = {
      result,
      buyHold,
      summary: performanceSummary(result.returns, { periodsPerYear, trades: result.trades, positions: result.positions, exposure: result.exposure, turnover: result.turnover }),
      feesPaid: sum(result.fees),
      fundingPaid: sum(result.fundingPaid),
      marketRegime,
      byMarketRegime: metricsByRegime(result.returns, { by: { marketRegime: marketRegime.regime }, periodsPerYear, trades: result.trades }),
      buyHoldByMarketRegime: metricsByRegime(returnsOf(buyHold), { by: { marketRegime: marketRegime.regime }, periodsPerYear }),
    };
  }
  return { options, time, periodsPerYear, coins, portfolio };
}
