import type { PerformanceSummary } from "../../metrics/performanceSummary.js";
import { summarySharpeStandardError } from "../../metrics/summarySharpeStandardError.js";
import { shownCagr } from "../../report/summaryTiles.js";
import type { TableColumns } from "../../report/textTable.js";
import type { Study } from "./runStudy.js";

/** One scorecard row: a strategy's headline numbers. `buyHoldReturn` is a true buy & hold (bought once, never rebalanced; see buyAndHold). */
export interface ScorecardRow {
  readonly strategy: string;
  readonly totalReturn: number;
  readonly buyHoldReturn: number;
  /** Annual return, NaN when the period is shorter than 28 days (see shownCagr). */
  readonly cagr: number;
  readonly sharpe: number;
  /** Standard error of `sharpe` on this many bars, adjusted for skewness and kurtosis (summarySharpeStandardError): few bars, wide error. */
  readonly sharpeSE: number;
  readonly sortino: number;
  readonly maxDrawdown: number;
  /** Closed trades (what the statistics count). */
  readonly trades: number;
  /** Trades still open at the last bar (in the trade list, marked at the last close; not in the statistics). */
  readonly openTrades: number;
  readonly winRate: number;
  readonly feesPaid: number;
  readonly fundingPaid: number;
}

function row(strategy: string, s: PerformanceSummary, buyHold: Float64Array, fees: number, funding: number, time: ArrayLike<number>, trades: readonly { readonly open: boolean }[]): ScorecardRow {
  const first = buyHold[0] as number;
  const last = buyHold[buyHold.length - 1] as number;
  return {
    strategy,
    totalReturn: s.totalReturn,
    buyHoldReturn: last / first - 1,
    cagr: shownCagr(s, time),
    sharpe: s.sharpeRatio,
    sharpeSE: summarySharpeStandardError(s),
    sortino: s.sortinoRatio,
    maxDrawdown: s.maxDrawdown,
    trades: s.trades,
    openTrades: trades.filter((t) => t.open).length,
    winRate: s.winRate,
    feesPaid: fees,
    fundingPaid: funding,
  };
}

/** The scorecard: one row per coin, then the portfolio. */
export function scorecardRows(study: Study): ScorecardRow[] {
  const rows: ScorecardRow[] = [];
  for (const coin of study.options.coins) {
    const c = study.coins[coin];
    if (c !== undefined) rows.push(row(coin, c.summary, c.buyHold, c.feesPaid, c.fundingPaid, study.time, c.result.trades));
  }
  const p = study.portfolio;
  if (p !== undefined) rows.push(row(`Portfolio (${study.options.coins.length} coins)`, p.summary, p.buyHold, p.feesPaid, p.fundingPaid, study.time, p.result.trades));
  return rows;
}

/** Column headings of the scorecard, in order. */
export const SCORECARD_HEADINGS: Readonly<Record<keyof ScorecardRow, string>> = {
  strategy: "strategy",
  totalReturn: "total return",
  buyHoldReturn: "buy & hold",
  cagr: "CAGR",
  sharpe: "Sharpe",
  sharpeSE: "Sharpe SE",
  sortino: "Sortino",
  maxDrawdown: "max DD",
  trades: "closed trades",
  openTrades: "open trades",
  winRate: "win rate",
  feesPaid: "fees paid",
  fundingPaid: "funding paid (− = received)",
};

const pct = (v: number): string => (Number.isFinite(v) ? `${(v * 100).toFixed(1)}%` : Number.isNaN(v) ? "–" : v > 0 ? "∞" : "-∞");
const ratio = (v: number): string => (Number.isFinite(v) ? v.toFixed(2) : Number.isNaN(v) ? "–" : v > 0 ? "∞" : "-∞");
const cash = (v: number): string => (Number.isFinite(v) ? Math.round(v).toLocaleString("en-US") : "–");

/** Per-heading number formats of the scorecard (percent, ratio, cash). */
export const SCORECARD_FORMAT: Readonly<Record<string, (v: number) => string>> = {
  "total return": pct,
  "buy & hold": pct,
  CAGR: pct,
  Sharpe: ratio,
  "Sharpe SE": ratio,
  Sortino: ratio,
  "max DD": pct,
  "closed trades": (v) => String(v),
  "open trades": (v) => String(v),
  "win rate": pct,
  "fees paid": cash,
  "funding paid (− = received)": cash,
};

/** The scorecard as named columns (headings as names), for textTable and htmlTable. */
export function scorecardColumns(rows: readonly ScorecardRow[]): TableColumns {
  const out: Record<string, number[] | string[]> = {};
  for (const [key, heading] of Object.entries(SCORECARD_HEADINGS) as [keyof ScorecardRow, string][]) {
    out[heading] = key === "strategy" ? rows.map((r) => r.strategy) : rows.map((r) => r[key] as number);
  }
  return out;
}
