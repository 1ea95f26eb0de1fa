import type { BacktestResult } from "../backtest/BacktestResult.js";
import { buyAndHold } from "../backtest/buyAndHold.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { performanceSummary } from "../metrics/performanceSummary.js";
import type { TearsheetSection } from "./renderTearsheet.js";
import { summaryTiles } from "./summaryTiles.js";

/** What {@link backtestSection} reads from a backtest result (a portfolio result qualifies too). */
export type BacktestLike = Pick<BacktestResult, "time" | "equity" | "returns" | "positions" | "exposure" | "turnover" | "fees" | "fundingPaid" | "trades">;

/** Options of {@link backtestSection}. */
export interface BacktestSectionOptions {
  readonly title: string;
  readonly intro?: string;
  /** Close prices of the bars: adds buy and hold to the equity chart and, with `score`, the signal chart. */
  readonly close?: ArrayLike<number>;
  /** The signal behind the trades (e.g. `replay.composite`), drawn under the price. */
  readonly score?: ArrayLike<number>;
  /** Buy / sell thresholds drawn on the score. */
  readonly thresholds?: { readonly buy: number; readonly sell: number };
  /** Bars per year for the metrics [inferred from the bar times]. */
  readonly periodsPerYear?: number;
  /** Most trades listed [40]. */
  readonly maxTrades?: number;
}

function total(a: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) {
    const v = a[i] as number;
    if (v === v) s += v;
  }
  return s;
}

/**
 * One tearsheet section for a backtest result: headline tiles (from
 * `performanceSummary`, fees and funding in cash), equity with buy and hold
 * when `close` is given, drawdown, the signal over price with the trades
 * when `score` is given, positions and the trade list. Pass it to
 * `renderTearsheet` or `writeReport`, alone or with other sections.
 * @throws InvalidArgumentError when close or score length differs from the result's
 * @example
 * const r = backtest({ time, close, signal: replay.label, feeBps: 5 });
 * await writeReport("out/btc.html", { title: "BTC", sections: [backtestSection(r, { title: "BTC", close, score: replay.composite })] });
 */
export function backtestSection(result: BacktestLike, options: BacktestSectionOptions): TearsheetSection {
  const n = result.time.length;
  for (const [name, a] of [["close", options.close], ["score", options.score]] as const) {
    if (a !== undefined && a.length !== n) {
      throw new InvalidArgumentError(name, `backtestSection: ${name} must have one value per bar of the result (${n}), got ${a.length}`);
    }
  }
  const summary = performanceSummary(result.returns, {
    ...(options.periodsPerYear !== undefined ? { periodsPerYear: options.periodsPerYear } : { time: result.time }),
    trades: result.trades,
    positions: result.positions,
    exposure: result.exposure,
    turnover: result.turnover,
  });
  const series: Record<string, ArrayLike<number>> = { strategy: result.equity };
  const close = options.close;
  if (close !== undefined && n > 0) {
    series["buy & hold"] = buyAndHold(close, { initialCash: result.equity[0] as number });
  }
  return {
    title: options.title,
    ...(options.intro !== undefined ? { intro: options.intro } : {}),
    metrics: summaryTiles(summary, { time: result.time, fees: total(result.fees), funding: total(result.fundingPaid), openTrades: result.trades.filter((t) => t.open).length }),
    equity: { time: result.time, series },
    ...(close !== undefined && options.score !== undefined
      ? { signal: { time: result.time, price: close, score: options.score, trades: result.trades, ...(options.thresholds !== undefined ? { thresholds: options.thresholds } : {}) } }
      : {}),
    positions: { time: result.time, series: { position: result.positions } },
    trades: result.trades,
    maxTrades: options.maxTrades ?? 40,
  };
}
