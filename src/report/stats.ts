import type { Trade } from "../backtest/Trade.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { performanceSummary, type PerformanceSummary } from "../metrics/performanceSummary.js";
import type { PeriodRate } from "../metrics/ReturnsOptions.js";
import { sharpeRatioStandardError } from "../metrics/sharpeRatioStandardError.js";
import { withDisplay, type Displayable } from "./display.js";
import { escapeHtml } from "./escapeHtml.js";
import { formatPercent } from "./formatPercent.js";
import { formatUtc } from "./formatUtc.js";
import { MIN_CAGR_DAYS, shownCagr } from "./summaryTiles.js";
import { formatNumber } from "./textTable.js";

/**
 * What {@link stats} reads: a backtest result (or a portfolio's, a walk-forward's
 * stitched returns with their times), or any per-bar return series with its times.
 */
export interface StatsSource {
  /** Bar times, epoch ms UTC. */
  readonly time: ArrayLike<number>;
  /** Simple return of each bar (NaN at bar 0 for a backtest). */
  readonly returns: ArrayLike<number>;
  /** Account value per bar: adds "Equity final". */
  readonly equity?: ArrayLike<number>;
  /** Round trips: add the trade statistics. */
  readonly trades?: readonly Trade[];
  /** Target positions per bar: exposure time. */
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
  /** Standard error of `summary.sharpeRatio` (annualised, normal returns: sharpeRatioStandardError). */
  readonly sharpeStandardError: number;
  /** The formatted lines, in display order. */
  readonly rows: readonly StatsRow[];
}

const DAY = 86_400_000;

function isSource(x: unknown): x is StatsSource {
  return typeof x === "object" && x !== null && "returns" in x && "time" in x && typeof (x as { returns: unknown }).returns === "object";
}

/**
 * The headline numbers of a backtest or a return series as one readable block,
 * like backtesting.py's `Backtest.run()` or vectorbt's `pf.stats()`: start and end
 * as UTC dates, percentages as percentages, the Sharpe ratio with its standard
 * error (`1.23 ± 0.45`), drawdown duration in days, the trade statistics when
 * there are trades and alpha / beta with a benchmark. The CAGR follows the
 * report's rule (hidden under 28 days, `shownCagr`) and says when it is
 * annualised from less than a year. Numbers come from
 * `performanceSummary` (empyrical definitions) and `sharpeRatioStandardError`;
 * nothing is computed a second way.
 *
 * In a notebook `show(stats(result))` draws it as a table; `console.log` (and
 * tslab's echo of a cell's last value) prints the text form.
 * @throws InvalidArgumentError when a bare return series comes without `time`, or lengths differ
 * @example
 * const bt = backtest({ time, close, signal: replay.label, feeBps: 5 });
 * show(stats(bt)); // Start 2026-10-29 00:00 … Sharpe ratio -1.85 ± 2.13 …
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
  const summary = performanceSummary(returns, {
    ...(options.periodsPerYear !== undefined ? { periodsPerYear: options.periodsPerYear } : { time }),
    ...(options.riskFree !== undefined ? { riskFree: options.riskFree } : {}),
    ...(options.benchmark !== undefined ? { benchmark: options.benchmark } : {}),
    ...(source.trades !== undefined ? { trades: source.trades } : {}),
    ...(source.positions !== undefined ? { positions: source.positions } : {}),
    ...(source.turnover !== undefined ? { turnover: source.turnover } : {}),
  });
  const n = time.length;
  const start = n > 0 ? (time[0] as number) : Number.NaN;
  const end = n > 0 ? (time[n - 1] as number) : Number.NaN;
  const se = summary.periods > 1 ? sharpeRatioStandardError(summary.sharpeRatio, { observations: summary.periods, periodsPerYear: summary.periodsPerYear }) : Number.NaN;
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
  if (source.positions !== undefined) add("Exposure time [%]", summary.exposure, formatPercent(summary.exposure, 1));
  if (source.equity !== undefined && source.equity.length > 0) {
    const last = source.equity[source.equity.length - 1] as number;
    add("Equity final", last, formatNumber(last));
  }
  add("Return [%]", summary.totalReturn, formatPercent(summary.totalReturn));
  const cagr = shownCagr(summary, time);
  const cagrLabel = spanDays < MIN_CAGR_DAYS ? `CAGR [%] (not shown under ${MIN_CAGR_DAYS} days)` : spanDays < 365 ? `CAGR [%] (annualised from ${spanDays.toFixed(0)} days)` : "CAGR [%]";
  add(cagrLabel, cagr, formatPercent(cagr));
  add("Volatility (ann.) [%]", summary.annualVolatility, formatPercent(summary.annualVolatility));
  add("Sharpe ratio", summary.sharpeRatio, Number.isFinite(se) && Number.isFinite(summary.sharpeRatio) ? `${ratio(summary.sharpeRatio)} ± ${ratio(se)}` : ratio(summary.sharpeRatio));
  add("Sortino ratio", summary.sortinoRatio, ratio(summary.sortinoRatio));
  add("Calmar ratio", summary.calmarRatio, ratio(summary.calmarRatio));
  add("Max drawdown [%]", summary.maxDrawdown, formatPercent(summary.maxDrawdown));
  add("Longest drawdown", summary.maxDrawdownDurationDays, days(summary.maxDrawdownDurationDays));
  if (source.trades !== undefined) {
    add("Trades", summary.trades, formatNumber(summary.trades));
    add("Win rate [%]", summary.winRate, formatPercent(summary.winRate, 1));
    add("Avg trade [%]", summary.avgTrade, formatPercent(summary.avgTrade));
    add("Profit factor", summary.profitFactor, ratio(summary.profitFactor));
    add("SQN", summary.sqn, ratio(summary.sqn));
  }
  if (source.turnover !== undefined) add("Turnover (sum)", summary.turnover, formatNumber(summary.turnover));
  if (options.benchmark !== undefined) {
    add("Alpha (ann.) [%]", summary.alpha, formatPercent(summary.alpha));
    add("Beta", summary.beta, ratio(summary.beta));
  }
  const title = options.title;
  const result = { title, start, end, summary, sharpeStandardError: se, rows };
  return withDisplay(result, () => ({ text: statsText(title, rows), html: statsHtml(title, rows) }));
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
