import type { SweepMetric } from "../research/sweepMetrics.js";

/**
 * A sweep table's metric columns as a reader names them (`show(sweep)` headings), instead of
 * the camelCase field names (`sharpeRatio 0.08664`). Every SWEEP_METRICS name has one (the type
 * says so); parameter columns keep their own names (they are what `best().params` hands back).
 * @internal
 */
export const SWEEP_METRIC_HEADINGS = {
  totalReturn: "total return",
  sharpeRatio: "Sharpe",
  maxDrawdown: "max drawdown",
  trades: "trades",
  turnover: "turnover",
  exposure: "exposure",
} as const satisfies Record<SweepMetric, string>;

/** The heading of a sweep column: a metric's reader name, else the column's own name. @internal */
export function sweepHeading(column: string): string {
  return (SWEEP_METRIC_HEADINGS as Readonly<Record<string, string>>)[column] ?? column;
}
