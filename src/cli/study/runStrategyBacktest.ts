import { backtest } from "../../backtest/backtest.js";
import type { BacktestResult } from "../../backtest/BacktestResult.js";
import type { Coin } from "../../domain/coins.js";
import { performanceSummary, type PerformanceSummary } from "../../metrics/performanceSummary.js";
import { bindStrategy, paperParams, type PaperBacktestOptions, type PaperStrategy } from "../../paper/paperStrategy.js";
import type { SweepValue } from "../../research/SweepResult.js";
import { componentMetricIds } from "../../signals/componentMetricIds.js";
import type { StudyData } from "./loadStudyData.js";
import { strategyBars } from "./strategyBars.js";

/** How `milab backtest --strategy` runs a module's strategy. */
export interface StrategyBacktestOptions {
  readonly coins: readonly Coin[];
  readonly barMinutes: number;
  /** The strategy's parameters (the module's `params`, overridden by `--params`). */
  readonly params: Readonly<Record<string, SweepValue>>;
  /** Backtest options from the flags (engineOptions). */
  readonly engine: PaperBacktestOptions;
  /** Charge `<coin>_funding_rate` per bar (fundingPerBar). */
  readonly funding: boolean;
}

/** One coin's backtest of a module's strategy. */
export interface CoinStrategyRun {
  readonly coin: Coin;
  readonly time: Float64Array;
  readonly result: BacktestResult;
  readonly summary: PerformanceSummary;
}

/** The strategy as it runs on one coin: a composite reads its components from the coin's metric columns (as paperTrade does). */
export function strategyFor(strategy: PaperStrategy, coin: Coin): PaperStrategy {
  return typeof strategy === "object" && strategy !== null && strategy.columns === undefined ? { ...strategy, columns: componentMetricIds(coin) } : strategy;
}

/**
 * Backtest a `--strategy` module on each coin: the coin's bars as `milab paper` builds them
 * (strategyBars), the strategy bound to its parameters and the flags' backtest options exactly
 * as the paper trader binds it (bindStrategy), one `backtest` per coin. So `milab backtest
 * --strategy m.mjs` over some bars is what `milab paper --strategy m.mjs` reconciles against.
 * @throws InvalidArgumentError on a bad strategy, parameter or option (the library's checks)
 */
export function runStrategyBacktest(data: StudyData, o: StrategyBacktestOptions, strategy: PaperStrategy): CoinStrategyRun[] {
  const where = "milab backtest";
  const periodsPerYear = (365 * 1440) / o.barMinutes;
  return o.coins.map((coin) => {
    const columns = strategyBars(data, coin, o.barMinutes);
    const fundingColumn = o.funding ? `${coin.toLowerCase()}_funding_rate` : undefined;
    const bound = bindStrategy(strategyFor(strategy, coin), paperParams(o.params, undefined, where), o.engine, fundingColumn !== undefined && columns[fundingColumn] !== undefined ? fundingColumn : undefined, where);
    const result = backtest({ ...bound.optionsFor(columns), outputs: ["equity", "returns", "positions", "exposure", "turnover", "fees", "fundingPaid", "trades"] });
    const summary = performanceSummary(result.returns, { periodsPerYear, trades: result.trades, positions: result.positions, exposure: result.exposure, turnover: result.turnover });
    return { coin, time: columns["time"] as Float64Array, result, summary };
  });
}
