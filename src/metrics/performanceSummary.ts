import type { Trade } from "../backtest/Trade.js";
import { alphaBeta } from "./alphaBeta.js";
import { annualReturn } from "./annualReturn.js";
import { annualVolatility } from "./annualVolatility.js";
import { calmarRatio } from "./calmarRatio.js";
import { cvarOf } from "./conditionalValueAtRisk.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { cumReturnsFinal } from "./cumReturns.js";
import { drawdownDetails } from "./drawdownDetails.js";
import { omegaRatio } from "./omegaRatio.js";
import { checkReturns, periodsPerYearOf, type AnnualisationOptions, type PeriodRate } from "./ReturnsOptions.js";
import { exposureTime } from "./exposureTime.js";
import { kurtosis } from "./kurtosis.js";
import { sharpeRatio } from "./sharpeRatio.js";
import { skewness } from "./skewness.js";
import { sortinoRatio } from "./sortinoRatio.js";
import { stabilityOfTimeseries } from "./stabilityOfTimeseries.js";
import { tailRatioOf } from "./tailRatio.js";
import { tradeStatistics } from "./tradeStatistics.js";
import { checkCutoff, finiteCopy, percentileOf } from "./valueAtRisk.js";

/**
 * Options of `performanceSummary`: `periodsPerYear` or `time` (bar times, epoch ms,
 * to infer it) is required, as for every function that annualises (see {@link AnnualisationOptions}).
 */
export type PerformanceSummaryOptions = AnnualisationOptions & PerformanceSummaryExtras;

/** The options of `performanceSummary` besides the bar length. */
export interface PerformanceSummaryExtras {
  /** Per-period risk-free return for Sharpe (constant or per bar), default 0. */
  readonly riskFree?: PeriodRate;
  /** Per-period required return for Sortino, default 0. */
  readonly requiredReturn?: number;
  /** VaR / CVaR tail probability, default 0.05. */
  readonly cutoff?: number;
  /**
   * Benchmark returns per bar (e.g. buy-and-hold of the coin), same bars as
   * `returns`, for `alpha` and `beta` (NaN without it).
   */
  readonly benchmark?: ArrayLike<number>;
  /** Trades of the backtest, for the trade statistics. */
  readonly trades?: readonly Trade[];
  /**
   * Target positions per bar: `exposure` (the share of non-zero targets) when `exposure` is not
   * given, and turnover without `turnover`.
   */
  readonly positions?: ArrayLike<number>;
  /**
   * Weight held at each close (BacktestResult.exposure): `exposure` is then the share of bars
   * held (exposureTime), what the engine did rather than what the strategy asked for.
   */
  readonly exposure?: ArrayLike<number>;
  /** Per-bar turnover, for turnover. */
  readonly turnover?: ArrayLike<number>;
}

/**
 * The headline numbers of one return series, flat (one number per key), as
 * the scorecard and the report show them. Decimals unless the name says
 * otherwise; NaN where a number has no meaning.
 */
export interface PerformanceSummary {
  /** Returns after the leading NaN (bar 0 of a backtest) are dropped. */
  readonly periods: number;
  /** Of those, the non-NaN ones: the n the Sharpe ratio, its moments and its standard error are computed from. */
  readonly observations: number;
  readonly periodsPerYear: number;
  readonly totalReturn: number;
  /** CAGR. */
  readonly annualReturn: number;
  readonly annualVolatility: number;
  readonly sharpeRatio: number;
  readonly sortinoRatio: number;
  readonly calmarRatio: number;
  readonly omegaRatio: number;
  readonly maxDrawdown: number;
  /** Longest time under water, in bars, and in days (bars * 365 / periodsPerYear). */
  readonly maxDrawdownDurationBars: number;
  readonly maxDrawdownDurationDays: number;
  readonly valueAtRisk: number;
  readonly conditionalValueAtRisk: number;
  readonly tailRatio: number;
  readonly stability: number;
  /** Skewness and excess kurtosis of the per-period returns (scipy defaults, as empyrical). */
  readonly skewness: number;
  readonly kurtosis: number;
  /** Annualised alpha and beta against `benchmark` (see alphaBeta). */
  readonly alpha: number;
  readonly beta: number;
  readonly trades: number;
  readonly winRate: number;
  readonly profitFactor: number;
  readonly expectancy: number;
  readonly avgTrade: number;
  readonly sqn: number;
  /**
   * Share of bars in the market, 0..1: of the closes that hold a position (exposureTime) with the
   * `exposure` option, else of the non-zero target positions, else sum(barsHeld) / bars.
   */
  readonly exposure: number;
  readonly turnover: number;
}

/**
 * Headline performance numbers of a per-period return series (and, when
 * given, its trades and positions): total return, CAGR, volatility, Sharpe,
 * Sortino, Calmar, Omega, max drawdown and its longest duration, VaR / CVaR,
 * tail ratio, stability, win rate, profit factor, trade count, exposure.
 * Every number follows the function of the same name (empyrical definitions),
 * applied after dropping LEADING NaN returns (a backtest's bar 0 has no
 * return): like `equity.pct_change().dropna()` before empyrical, so the CAGR
 * spans exactly the n - 1 periods of an n-bar equity curve. NaN inside the
 * series are kept and handled by each metric.
 * @throws InvalidArgumentError on a bad cutoff, benchmark or exposure (not one per bar), or when periodsPerYear or time is missing or bad
 * @example performanceSummary(result.returns, { time: result.time, trades: result.trades, positions: result.positions }).sharpeRatio
 */
export function performanceSummary(allReturns: ArrayLike<number>, options: PerformanceSummaryOptions): PerformanceSummary {
  checkReturns(allReturns, "performanceSummary", "returns");
  let first = 0;
  while (first < allReturns.length && Number.isNaN(allReturns[first] as number)) first++;
  // A view, not a copy, when the input is already a Float64Array (no metric mutates its input).
  const returns = (allReturns instanceof Float64Array ? allReturns : Float64Array.from(allReturns)).subarray(first);
  const ppy = periodsPerYearOf(options, "performanceSummary");
  const o = { periodsPerYear: ppy };
  const cutoff = options.cutoff ?? 0.05;
  checkCutoff(cutoff, "performanceSummary");
  const work = finiteCopy(returns);
  const dd = drawdownDetails(returns);
  const bench = options.benchmark;
  if (bench !== undefined && bench.length !== allReturns.length) {
    throw new InvalidArgumentError(
      "benchmark",
      `performanceSummary: benchmark must have one return per bar (${allReturns.length}), got ${bench.length}`,
    );
  }
  const ab =
    bench !== undefined
      ? alphaBeta(returns, Float64Array.from({ length: returns.length }, (_, i) => bench[first + i] as number), o)
      : { alpha: Number.NaN, beta: Number.NaN };
  const held = options.exposure !== undefined ? heldShare(options.exposure, allReturns.length) : undefined;
  const hasTradeInfo = options.trades !== undefined || options.positions !== undefined || options.turnover !== undefined;
  const ts = hasTradeInfo
    ? tradeStatistics(options.trades ?? [], {
        ...(options.positions !== undefined ? { positions: options.positions } : {}),
        ...(options.turnover !== undefined ? { turnover: options.turnover } : {}),
        bars: allReturns.length,
      })
    : undefined;
  const nan = Number.NaN;
  const noTrades = options.trades === undefined;
  return {
    periods: returns.length,
    observations: work.length,
    periodsPerYear: ppy,
    totalReturn: cumReturnsFinal(returns),
    annualReturn: annualReturn(returns, o),
    annualVolatility: annualVolatility(returns, o),
    sharpeRatio: sharpeRatio(returns, { ...o, riskFree: options.riskFree ?? 0 }),
    sortinoRatio: sortinoRatio(returns, { ...o, requiredReturn: options.requiredReturn ?? 0 }),
    calmarRatio: calmarRatio(returns, o),
    omegaRatio: omegaRatio(returns, o),
    maxDrawdown: dd.maxDrawdown,
    maxDrawdownDurationBars: returns.length === 0 ? nan : dd.maxDuration,
    maxDrawdownDurationDays: returns.length === 0 ? nan : (dd.maxDuration * 365) / ppy,
    valueAtRisk: percentileOf(work, cutoff),
    conditionalValueAtRisk: cvarOf(work, cutoff),
    tailRatio: tailRatioOf(work),
    stability: stabilityOfTimeseries(returns),
    skewness: skewness(returns),
    kurtosis: kurtosis(returns),
    alpha: ab.alpha,
    beta: ab.beta,
    trades: noTrades ? nan : (ts?.trades ?? nan),
    winRate: noTrades ? nan : (ts?.winRate ?? nan),
    profitFactor: noTrades ? nan : (ts?.profitFactor ?? nan),
    expectancy: noTrades ? nan : (ts?.expectancy ?? nan),
    avgTrade: noTrades ? nan : (ts?.avgTrade ?? nan),
    sqn: noTrades ? nan : (ts?.sqn ?? nan),
    exposure: held ?? ts?.exposure ?? nan,
    turnover: ts?.turnover ?? nan,
  };
}

function heldShare(held: ArrayLike<number>, bars: number): number {
  if (held.length !== bars) {
    throw new InvalidArgumentError("exposure", `performanceSummary: exposure must have one held weight per bar (${bars}), got ${held.length}`);
  }
  return exposureTime(held);
}
