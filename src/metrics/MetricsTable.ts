import type { DataFrame } from "../data/danfo.js";
import { toDataFrame } from "../data/toDataFrame.js";

/** Named columns of a {@link MetricsTable}: numbers or strings. */
export type MetricsColumns = Readonly<Record<string, Float64Array | readonly string[]>>;

/**
 * A small result table: named columns of equal length (numbers or strings).
 * `C` names each column's type for the functions that return a fixed set of
 * columns (`rollingMetrics(...).columns.sharpe` is a Float64Array, no cast).
 */
export interface MetricsTable<C extends MetricsColumns = MetricsColumns> {
  readonly rows: number;
  readonly columns: Readonly<C>;
  /** The same table as a danfo DataFrame (danfo loads on first call). */
  toDataFrame(): DataFrame;
}

/** Wrap equal-length columns as a MetricsTable. @internal */
export function metricsTable<C extends MetricsColumns>(columns: C): MetricsTable<C> {
  const first = Object.values(columns)[0];
  return { rows: first ? first.length : 0, columns, toDataFrame: () => toDataFrame(columns) };
}
