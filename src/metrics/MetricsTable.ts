import type { DataFrame } from "../data/danfo.js";
import { toDataFrame } from "../data/toDataFrame.js";

/** A small result table: named columns of equal length (numbers or strings). */
export interface MetricsTable {
  readonly rows: number;
  readonly columns: Readonly<Record<string, Float64Array | readonly string[]>>;
  /** The same table as a danfo DataFrame (danfo loads on first call). */
  toDataFrame(): DataFrame;
}

/** Wrap equal-length columns as a MetricsTable. @internal */
export function metricsTable(columns: Record<string, Float64Array | readonly string[]>): MetricsTable {
  const first = Object.values(columns)[0];
  return { rows: first ? first.length : 0, columns, toDataFrame: () => toDataFrame(columns) };
}
