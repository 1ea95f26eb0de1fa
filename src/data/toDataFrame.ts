import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { loadDanfo, type DataFrame } from "./danfo.js";
import { isPanel, type Panel } from "./Panel.js";

/** Columns of a table: numbers (typed arrays welcome) or strings, all the same length. */
export type Columns = Readonly<Record<string, ArrayLike<number> | readonly string[]>>;

/**
 * Build a danfo DataFrame from named columns, column by column (never row
 * by row through objects). Values keep full float64 precision: danfo stores
 * the JS arrays as given (its dtype label says "float32"/"int32" but the
 * numbers are not rounded; avoid danfo's tensor-backed arithmetic, which is).
 * Column order follows the object's key order. A {@link Panel} is accepted
 * too: its `time` comes first, then its columns.
 * @throws InvalidArgumentError when the columns differ in length or there are none
 * @example toDataFrame({ time: Float64Array.of(0, 60_000), close: [1, 2] }).shape // [2, 2]
 */
export function toDataFrame(input: Columns | Panel): DataFrame {
  const columns: Columns = isPanel(input) ? { time: input.time, ...input.columns } : input;
  const names = Object.keys(columns);
  if (names.length === 0) {
    throw new InvalidArgumentError("columns", "toDataFrame: needs at least one column, got none");
  }
  const n = (columns[names[0] as string] as ArrayLike<unknown>).length;
  const data: Record<string, unknown[]> = {};
  for (const name of names) {
    const col = columns[name] as ArrayLike<number> | readonly string[];
    if (col.length !== n) {
      throw new InvalidArgumentError(
        "columns",
        `toDataFrame: every column must have ${n} values (like ${JSON.stringify(names[0])}), got ${col.length} in ${JSON.stringify(name)}`,
      );
    }
    data[name] = Array.from(col as ArrayLike<unknown>);
  }
  const dfd = loadDanfo();
  if (n === 0) return new dfd.DataFrame([], { columns: names });
  return new dfd.DataFrame(data);
}
