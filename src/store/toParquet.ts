import { writeParquet, type WriteParquetOptions } from "./writeParquet.js";
import type { TableInput } from "./tableColumns.js";

/**
 * Write a result (a backtest, portfolio, sweep or metrics table: anything
 * with `toDataFrame()`, or a Panel) to a Parquet file; the same file as
 * `writeParquet(path, result)`, with the result first for chaining. A
 * result's own `toParquet(path)` method is this function.
 * @throws InvalidArgumentError as writeParquet
 * @example await toParquet(backtest({ close, position }), "out/run.parquet");
 */
export function toParquet(result: TableInput, path: string, options: WriteParquetOptions = {}): Promise<void> {
  return writeParquet(path, result, options);
}
