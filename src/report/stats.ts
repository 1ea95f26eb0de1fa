import type { Trade } from "../backtest/Trade.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { performanceSummary, type PerformanceSummary } from "../metrics/performanceSummary.js";
import type { PeriodRate } from "../metrics/ReturnsOptions.js";
import { summarySharpeStandardError } from "../metrics/summarySharpeStandardError.js";
import { topDrawdowns } from "../metrics/topDrawdowns.js";
import { tradeStatistics, type TradeStatistics } from "../metrics/tradeStatistics.js";
import { buyAndHold } from "../backtest/buyAndHold.js";
import { withDisplay, type Displayable } from "./display.js";
import { escapeHtml } from "./escapeHtml.js";
import { formatPercent } from "../domain/formatPercent.js";
import { formatUtc } from "../domain/formatUtc.js";
import { MIN_CAGR_DAYS, shownCagr } from "./summaryTiles.js";
import { formatNumber } from "../domain/formatNumber.js";

/**
 * What {@link stats} reads: a backtest result (or a portfolio's, a walk-forward's
 * stitched returns with their times), or any per-bar return series with its times.
 */
export interface StatsSource {
  /** Bar times, epoch ms UTC. */
  readonly time: ArrayLike<number>;
  /** Simple return of each bar (NaN at bar 0 for a backtest). */
  readonly returns: ArrayLike<number>;
  /** Account value per bar: adds "Equity final" and "Equity peak". */
  readonly equity?: ArrayLike<number>;
  /** Round trips: add the trade statistics. */
  readonly trades?: readonly Trade[];
  /** Weight held at each close (BacktestResult.exposure): adds "Bars held [%]" (exposureTime). */
  readonly exposure?: ArrayLike<number>;
  /** Target positions per bar: without `exposure`, adds "Bars with a target [%]" (the share of non-zero targets). */
  readonly positions?: ArrayLike<number>;
  /** Per-bar turnover. */
  readonly turnover?: ArrayLike<number>;
}

/** Options of {@link stats}. */
export interface StatsOptions {
  /** Bar times, epoch ms UTC, when the input is a bare return series. */
  readonly time?: ArrayLike<number>;
  /** Bars per year [inferred from the bar times]. */
  readonly periodsPerYear?: number;
  /** Benchmark returns per bar (same bars), e.g. buy and hold of the coin: adds alpha and beta. */
  readonly benchmark?: ArrayLike<number>;
  /** Close prices of the traded coin, one per bar: adds "Buy & hold return [%]" (first to last valid close, as buyAndHold). */
  readonly close?: ArrayLike<number>;
  /** Per-period risk-free return for the Sharpe ratio [0]. */
  readonly riskFree?: PeriodRate;
  /** A name shown above the numbers. */
  readonly title?: string;
}

/** One line of {@link Stats}: its label, the number (decimal, as computed) and how it reads. */
export interface StatsRow {
  readonly label: string;
  readonly value: number;
  readonly text: string;
}

/** The result of {@link stats}: the numbers, their formatted lines, and both display forms. */
export interface Stats extends Displayable {
  readonly title: string | undefined;
  /** First and last bar time, epoch ms UTC. */
  readonly start: number;
  readonly end: number;
  /** Every number, unformatted (see performanceSummary). */
  readonly summary: PerformanceSummary;
  /**
   * Standard error of `summary.sharpeRatio`, annualised, adjusted for the returns' skewness and
   * kurtosis (Mertens 2002 / Opdyke 2007: summarySharpeStandardError, the σ̂(SR̂) of the PSR).
   */
  readonly sharpeStandardError: number;
  /** The trade statistics the trade rows show (tradeStatistics of the source's trades), when it has trades. */
  readonly tradeStatistics: TradeStatistics | undefined;
  /** The formatted lines, in display order. */
  readonly rows: readonly StatsRow[];
}

const DAY = 86_400_000;

function isSource(x: unknown): x is StatsSource {
  return typeof x === "object" && x !== null && "returns" in x && "time" in x && typeof (x as { returns: unknown }).returns === "object";
}

/**
 * The headline numbers of a backtest or a return series as one readable block,
 * in the layout of backtesting.py's `Backtest.run()` output: start and end
 * as UTC dates, percentages as percentages, the Sharpe ratio with its standard
 * error (`1.23 ± 0.45`), durations in days, the trade statistics when there
 * are trades, buy and hold with `close`, alpha / beta with a benchmark.
 *
 * A row that carries backtesting.py's name means what theirs means
 * (`backtesting/_stats.py` `compute_stats`; each checked against that
 * definition written in pandas, test/report/statsBacktestingPy.test.ts):
 * Start, End, Duration, Equity final / peak, Return, Buy & hold return (from
 * bar 0: we know no indicator warm-up), Max drawdown, Max / Avg drawdown
 * duration (from the last bar at the high-water mark to the first bar back at
 * it, or to the last bar: topDrawdowns' `days`), Trades (closed ones), Win
 * rate, Best / Worst trade, Avg trade (the GEOMETRIC mean of the net trade
 * returns), Profit factor (on trade returns), Expectancy (mean trade return),
 * SQN (on cash P&L: sqrt(n)·mean(pnl)/std(pnl)).
 * Rows computed another way say so in their label:
 * - "Bars held [%]": the share of closes that hold a position (exposureTime,
 *   from the weights the engine held, not the targets). backtesting.py's
 *   "Exposure Time" also counts the bar a trade exits in (`EntryBar..ExitBar`
 *   inclusive): an always-long target with a 5 % stop held 89 of 350 closes
 *   here, 25.4 %, and 90 bars, 25.7 %, there.
 * - "(empyrical)": CAGR, volatility, Sharpe, Sortino, Calmar, alpha and beta
 *   follow empyrical on the per-bar returns (docs/DESIGN.md); backtesting.py
 *   resamples equity to days and uses a geometric annual return and its own
 *   compounded volatility, so its Sharpe, Sortino, Calmar and volatility are
 *   other numbers.
 * The CAGR follows the report's rule (hidden under 28 days, `shownCagr`) and
 * says when it is annualised from less than a year. Numbers come from
 * `performanceSummary`, `tradeStatistics`, `topDrawdowns`, `buyAndHold` and
 * `summarySharpeStandardError`; nothing is computed a second way.
 *
 * In a notebook `show(stats(result))` draws it as a table; `console.log` (and
 * tslab's echo of a cell's last value) prints the text form.
 * @throws InvalidArgumentError when a bare return series comes without `time`, or lengths differ
 * @example
 * const bt = backtest({ time, close, signal: replay.label, feeBps: 5 });
 * show(stats(bt, { close })); // Start 2026-10-29 00:00 … Sharpe ratio (empyrical) -1.85 ± 2.13 …
 */
export function stats(input: StatsSource | ArrayLike<number>, options: StatsOptions = {}): Stats {
  const source: StatsSource = isSource(input) ? input : { time: options.time ?? [], returns: input };
  const { time, returns } = source;
  if (!isSource(input) && options.time === undefined) {
    throw new InvalidArgumentError("time", "stats: a bare return series needs its bar times: stats(returns, { time })");
  }
  if (time.length !== returns.length) {
    throw new InvalidArgumentError("time", `stats: time must have one value per return (${returns.length}), got ${time.length}`);
  }
  if (options.close !== undefined && options.close.length !== returns.length) {
    throw new InvalidArgumentError("close", `stats: close must have one price per bar (${returns.length}), got ${options.close.length}`);
  }
  const summary = performanceSummary(returns, {
    ...(options.periodsPerYear !== undefined ? { periodsPerYear: options.periodsPerYear } : { time }),
    ...(options.riskFree !== undefined ? { riskFree: options.riskFree } : {}),
    ...(options.benchmark !== undefined ? { benchmark: options.benchmark } : {}),
    ...(source.trades !== undefined ? { trades: source.trades } : {}),
    ...(source.positions !== undefined ? { positions: source.positions } : {}),
    ...(source.exposure !== undefined ? { exposure: source.exposure } : {}),
    ...(source.turnover !== undefined ? { turnover: source.turnover } : {}),
  });
  const n = time.length;
  const start = n > 0 ? (time[0] as number) : Number.NaN;
  const end = n > 0 ? (time[n - 1] as number) : Number.NaN;
  const se = summarySharpeStandardError(summary);
  const spanDays = n > 1 ? (end - start) / DAY : 0;
  const days = (v: number): string => (Number.isFinite(v) ? `${v.toFixed(1)} days` : "–");
  const ratio = (v: number): string => (Number.isFinite(v) ? v.toFixed(2) : formatNumber(v));
  const rows: StatsRow[] = [];
  const add = (label: string, value: number, text: string): void => {
    rows.push({ label, value, text });
  };
  add("Start", start, formatUtc(start));
  add("End", end, formatUtc(end));
  add("Duration", (end - start) / DAY, days((end - start) / DAY));
  add("Bars", n, formatNumber(n));
  if (source.exposure !== undefined) add("Bars held [%]", summary.exposure, formatPercent(summary.exposure, 1));
  else if (source.positions !== undefined) add("Bars with a target [%]", summary.exposure, formatPercent(summary.exposure, 1));
  if (source.equity !== undefined && source.equity.length > 0) {
    const last = source.equity[source.equity.length - 1] as number;
    const peak = maxOf(source.equity);
    add("Equity final", last, formatNumber(last));
    add("Equity peak", peak, formatNumber(peak));
  }
  add("Return [%]", summary.totalReturn, formatPercent(summary.totalReturn));
  if (options.close !== undefined) {
    const hold = n > 0 ? (buyAndHold(options.close, { initialCash: 1 })[n - 1] as number) - 1 : Number.NaN;
    add("Buy & hold return [%]", hold, formatPercent(hold));
  }
  const cagr = shownCagr(summary, time);
  const cagrLabel =
    spanDays < MIN_CAGR_DAYS
      ? `CAGR [%] (empyrical; not shown under ${MIN_CAGR_DAYS} days)`
      : spanDays < 365
        ? `CAGR [%] (empyrical, annualised from ${spanDays.toFixed(0)} days)`
        : "CAGR [%] (empyrical)";
  add(cagrLabel, cagr, formatPercent(cagr));
  add("Volatility (ann.) [%] (empyrical)", summary.annualVolatility, formatPercent(summary.annualVolatility));
  add(
    "Sharpe ratio (empyrical) ± SE",
    summary.sharpeRatio,
    Number.isFinite(se) && Number.isFinite(summary.sharpeRatio) ? `${ratio(summary.sharpeRatio)} ± ${ratio(se)}` : ratio(summary.sharpeRatio),
  );
  add("Sortino ratio (empyrical)", summary.sortinoRatio, ratio(summary.sortinoRatio));
  add("Calmar ratio (empyrical)", summary.calmarRatio, ratio(summary.calmarRatio));
  add("Max drawdown [%]", summary.maxDrawdown, formatPercent(summary.maxDrawdown));
  const dd = n > 0 ? topDrawdowns(returns, { time, top: Number.MAX_SAFE_INTEGER }).columns.days : new Float64Array(0);
  const ddMax = dd.length > 0 ? maxOf(dd) : Number.NaN;
  const ddMean = dd.length > 0 ? dd.reduce((a, b) => a + b, 0) / dd.length : Number.NaN;
  add("Max drawdown duration", ddMax, days(ddMax));
  add("Avg drawdown duration", ddMean, days(ddMean));
  const ts = source.trades !== undefined ? tradeStatistics(source.trades) : undefined;
  if (ts !== undefined) {
    add("Trades", ts.trades, formatNumber(ts.trades));
    add("Win rate [%]", ts.winRate, formatPercent(ts.winRate, 1));
    add("Best trade [%]", ts.bestTrade, formatPercent(ts.bestTrade));
    add("Worst trade [%]", ts.worstTrade, formatPercent(ts.worstTrade));
    add("Avg trade [%]", ts.geometricMeanTrade, formatPercent(ts.geometricMeanTrade));
    add("Profit factor", ts.profitFactorOfReturns, ratio(ts.profitFactorOfReturns));
    add("Expectancy [%]", ts.avgTrade, formatPercent(ts.avgTrade));
    add("SQN", ts.sqnOfPnl, ratio(ts.sqnOfPnl));
  }
  if (source.turnover !== undefined) add("Turnover (sum)", summary.turnover, formatNumber(summary.turnover));
  if (options.benchmark !== undefined) {
    add("Alpha (ann.) [%] (empyrical)", summary.alpha, formatPercent(summary.alpha));
    add("Beta (empyrical)", summary.beta, ratio(summary.beta));
  }
  const title = options.title;
  const result = { title, start, end, summary, sharpeStandardError: se, tradeStatistics: ts, rows };
  return withDisplay(result, () => ({ text: statsText(title, rows), html: statsHtml(title, rows) }));
}

/** Largest non-NaN value (NaN when there is none). */
function maxOf(x: ArrayLike<number>): number {
  let m = Number.NaN;
  for (let i = 0; i < x.length; i++) {
    const v = x[i] as number;
    if (!Number.isNaN(v) && !(v <= m)) m = v;
  }
  return m;
}

function statsText(title: string | undefined, rows: readonly StatsRow[]): string {
  const w = Math.max(...rows.map((r) => r.label.length));
  const v = Math.max(...rows.map((r) => r.text.length));
  const lines = rows.map((r) => `${r.label.padEnd(w)}  ${r.text.padStart(v)}`);
  return (title !== undefined ? [title, ...lines] : lines).join("\n");
}

function statsHtml(title: string | undefined, rows: readonly StatsRow[]): string {
  const caption = title !== undefined ? `<caption style="text-align:left;font-weight:600">${escapeHtml(title)}</caption>` : "";
  const body = rows
    .map((r) => `<tr><th style="text-align:left;font-weight:normal">${escapeHtml(r.label)}</th><td style="text-align:right;font-variant-numeric:tabular-nums">${escapeHtml(r.text)}</td></tr>`)
    .join("");
  return `<table class="milab-table milab-stats">${caption}<tbody>${body}</tbody></table>`;
}
