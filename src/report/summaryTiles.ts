import type { PerformanceSummary } from "../metrics/performanceSummary.js";
import { summarySharpeStandardError } from "../metrics/summarySharpeStandardError.js";
import type { MetricTile } from "./renderTearsheet.js";

/** Shortest period whose CAGR is shown: annualising a few days' return gives numbers like 8 000 000%. */
export const MIN_CAGR_DAYS = 28;

/**
 * The annual return of a summary, or NaN when the bars span fewer than
 * {@link MIN_CAGR_DAYS} days (shown as a dash).
 * @example shownCagr(summary, [0, 86_400_000]) // NaN (one day)
 */
export function shownCagr(summary: Pick<PerformanceSummary, "annualReturn">, time: ArrayLike<number>): number {
  return spanDays(time) >= MIN_CAGR_DAYS ? summary.annualReturn : Number.NaN;
}

/** Days from the first to the last time (0 with fewer than two). */
function spanDays(time: ArrayLike<number>): number {
  return time.length > 1 ? ((time[time.length - 1] as number) - (time[0] as number)) / 86_400_000 : 0;
}

/**
 * What a CAGR shown for these times is made from, when that is less than a year (undefined for a
 * year or more, and when no CAGR is shown): a month's return compounded twelve times is an
 * extrapolation, and the reader must see it is one.
 * @example cagrNote(time) // "CAGR annualises 30 days of returns (compounded to 365 days): an extrapolation, not a forecast."
 */
export function cagrNote(time: ArrayLike<number>): string | undefined {
  const days = spanDays(time);
  if (days < MIN_CAGR_DAYS || days >= 365) return undefined;
  return `CAGR annualises ${Math.round(days)} days of returns (compounded to 365 days): an extrapolation, not a forecast.`;
}

/** The CAGR tile's label: "CAGR", or "CAGR (annualised from N days)" under a year (see {@link cagrNote}). */
export function cagrLabel(time: ArrayLike<number>): string {
  const days = spanDays(time);
  return days >= MIN_CAGR_DAYS && days < 365 ? `CAGR (annualised from ${Math.round(days)} days)` : "CAGR";
}

/** The label of funding paid in cash, with its sign: positive paid, negative received (as BacktestResult.fundingPaid). */
export const FUNDING_PAID_LABEL = "Funding paid (− = received)";

/**
 * The headline tiles of a strategy for {@link renderTearsheet}: total return,
 * CAGR (periods of 28 days or more), Sharpe and its standard error
 * (summarySharpeStandardError: on the summary's n = `periods` returns, adjusted
 * for their skewness and kurtosis, Mertens 2002, the σ̂(SR̂) of Bailey & López
 * de Prado's PSR), Sortino, max drawdown, volatility, closed trades (with how many are
 * still open at the end, when `openTrades` is given), win rate, the
 * share of bars held ("Bars held": `summary.exposure`, from the weights held
 * when the summary was given them, see exposureTime), and the fees and funding paid in cash (funding: negative =
 * received). The CAGR tile says how many days it annualises when that is under a year.
 * @example summaryTiles(performanceSummary(r.returns, { time: r.time, trades: r.trades }), { time: r.time, fees: 12.5, funding: -3 })
 */
export function summaryTiles(
  summary: PerformanceSummary,
  paid: { readonly time: ArrayLike<number>; readonly fees: number; readonly funding: number; readonly openTrades?: number },
): MetricTile[] {
  const s = summary;
  // the summary counts closed trades; a trade list also shows those still open at the end: say both
  const open = paid.openTrades ?? 0;
  return [
    { label: "Total return", value: s.totalReturn, format: "percent", signed: true },
    { label: cagrLabel(paid.time), value: shownCagr(s, paid.time), format: "percent", signed: true },
    { label: "Sharpe", value: s.sharpeRatio, signed: true },
    { label: "Sharpe SE", value: summarySharpeStandardError(s) },
    { label: "Sortino", value: s.sortinoRatio, signed: true },
    { label: "Max drawdown", value: s.maxDrawdown, format: "percent" },
    { label: "Volatility", value: s.annualVolatility, format: "percent" },
    { label: open > 0 ? `Closed trades (+${open} open)` : "Closed trades", value: s.trades, format: "integer" },
    { label: "Win rate", value: s.winRate, format: "percent" },
    { label: "Bars held", value: s.exposure, format: "percent" },
    { label: "Fees paid", value: paid.fees, format: "money" },
    { label: FUNDING_PAID_LABEL, value: paid.funding, format: "money" },
  ];
}
