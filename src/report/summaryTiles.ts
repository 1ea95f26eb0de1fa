import type { PerformanceSummary } from "../metrics/performanceSummary.js";
import { sharpeRatioStandardError } from "../metrics/sharpeRatioStandardError.js";
import type { MetricTile } from "./renderTearsheet.js";

/** Shortest period whose CAGR is shown: annualising a few days' return gives numbers like 8 000 000%. */
export const MIN_CAGR_DAYS = 28;

/**
 * The annual return of a summary, or NaN when the bars span fewer than
 * {@link MIN_CAGR_DAYS} days (shown as a dash).
 * @example shownCagr(summary, [0, 86_400_000]) // NaN (one day)
 */
export function shownCagr(summary: Pick<PerformanceSummary, "annualReturn">, time: ArrayLike<number>): number {
  const days = time.length > 1 ? ((time[time.length - 1] as number) - (time[0] as number)) / 86_400_000 : 0;
  return days >= MIN_CAGR_DAYS ? summary.annualReturn : Number.NaN;
}

/**
 * The headline tiles of a strategy for {@link renderTearsheet}: total return,
 * CAGR (periods of 28 days or more), Sharpe and its standard error
 * (sharpeRatioStandardError on the summary's n = `periods` returns, normal
 * returns: sqrt((periodsPerYear + Sharpe² / 2) / (n − 1)), the σ̂(SR̂) of
 * Bailey & López de Prado's PSR), Sortino, max drawdown,
 * volatility, trades, win rate, exposure, and the fees and funding paid in cash.
 * @example summaryTiles(performanceSummary(r.returns, { time: r.time, trades: r.trades }), { time: r.time, fees: 12.5, funding: -3 })
 */
export function summaryTiles(summary: PerformanceSummary, paid: { readonly time: ArrayLike<number>; readonly fees: number; readonly funding: number }): MetricTile[] {
  const s = summary;
  return [
    { label: "Total return", value: s.totalReturn, format: "percent", signed: true },
    { label: "CAGR", value: shownCagr(s, paid.time), format: "percent", signed: true },
    { label: "Sharpe", value: s.sharpeRatio, signed: true },
    { label: "Sharpe SE", value: sharpeRatioStandardError(s.sharpeRatio, { observations: s.periods, periodsPerYear: s.periodsPerYear }) },
    { label: "Sortino", value: s.sortinoRatio, signed: true },
    { label: "Max drawdown", value: s.maxDrawdown, format: "percent" },
    { label: "Volatility", value: s.annualVolatility, format: "percent" },
    { label: "Trades", value: s.trades, format: "integer" },
    { label: "Win rate", value: s.winRate, format: "percent" },
    { label: "Exposure", value: s.exposure, format: "percent" },
    { label: "Fees paid", value: paid.fees, format: "money" },
    { label: "Funding paid", value: paid.funding, format: "money" },
  ];
}
