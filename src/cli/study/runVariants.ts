import { sharpeRatioStandardError } from "../../metrics/sharpeRatioStandardError.js";
import type { StudyData } from "./loadStudyData.js";
import { runStudy, type StudyOptions } from "./runStudy.js";

/** One rule change and what it did to the portfolio (or the single coin). */
export interface VariantRow {
  readonly variant: string;
  /** What changed from the baseline, as CLI options. */
  readonly options: string;
  readonly totalReturn: number;
  readonly sharpe: number;
  /** Standard error of `sharpe` (Lo 2002) on the variant's bars. */
  readonly sharpeSE: number;
  readonly maxDrawdown: number;
  readonly trades: number;
  readonly feesPaid: number;
  readonly fundingPaid: number;
}

/**
 * The what-if table's columns (terminal scorecard and HTML report alike):
 * variant, total return, Sharpe, Sharpe SE, max DD, trades, fees paid, funding paid and
 * the `milab backtest` options that reproduce the row.
 */
export function variantColumns(rows: readonly VariantRow[]): Record<string, string[] | number[]> {
  return {
    variant: rows.map((x) => x.variant),
    "total return": rows.map((x) => x.totalReturn),
    Sharpe: rows.map((x) => x.sharpe),
    "Sharpe SE": rows.map((x) => x.sharpeSE),
    "max DD": rows.map((x) => x.maxDrawdown),
    trades: rows.map((x) => x.trades),
    "fees paid": rows.map((x) => x.feesPaid),
    "funding paid": rows.map((x) => x.fundingPaid),
    "milab backtest options": rows.map((x) => x.options),
  };
}

/** The rule changes tried, each relative to the baseline options. */
export function variantsOf(base: StudyOptions): { variant: string; options: string; change: Partial<StudyOptions> }[] {
  const out: { variant: string; options: string; change: Partial<StudyOptions> }[] = [
    { variant: "baseline", options: "", change: {} },
    { variant: "gross of costs", options: "--fee-bps 0 --slippage-bps 0", change: { feeBps: 0, slippageBps: 0 } },
    { variant: `threshold ±${Math.min(1, 2 * base.threshold)}`, options: `--threshold ${Math.min(1, 2 * base.threshold)}`, change: { threshold: Math.min(1, 2 * base.threshold) } },
    { variant: "long only", options: "--no-shorts", change: { shorts: false } },
    { variant: "confidence sizing", options: "--sizing confidence", change: { sizing: "confidence" } },
    { variant: "imbalance only", options: "--weights imbalance=1", change: { weights: { imbalance: 1 } } },
    base.barMinutes === 240
      ? { variant: "1h bars", options: "--bar 60", change: { barMinutes: 60 } }
      : { variant: "4h bars", options: "--bar 240", change: { barMinutes: 240 } },
    { variant: base.regimeFilter ? "no regime filter" : "regime filter", options: base.regimeFilter ? "--no-regime-filter" : "(without --no-regime-filter)", change: { regimeFilter: !base.regimeFilter } },
  ];
  return out;
}

/**
 * The study again under a few rule changes (costs, threshold, shorts, sizing,
 * weights, bar size, regime filter), on the same data: how sensitive the
 * result is to each choice. In-sample by construction: a better row here is a
 * hypothesis to test out of sample, not evidence of an edge.
 */
export function runVariants(data: StudyData, base: StudyOptions): VariantRow[] {
  return variantsOf(base).map(({ variant, options, change }) => {
    const s = runStudy(data, { ...base, ...change });
    const single = s.coins[base.coins[0]!];
    const p = s.portfolio;
    const summary = p?.summary ?? single!.summary;
    return {
      variant,
      options,
      totalReturn: summary.totalReturn,
      sharpe: summary.sharpeRatio,
      sharpeSE: sharpeRatioStandardError(summary.sharpeRatio, { observations: summary.periods, periodsPerYear: summary.periodsPerYear }),
      maxDrawdown: summary.maxDrawdown,
      trades: summary.trades,
      feesPaid: p?.feesPaid ?? single!.feesPaid,
      fundingPaid: p?.fundingPaid ?? single!.fundingPaid,
    };
  });
}
