import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { loadDanfo, type DataFrame } from "./danfo.js";
import { isPanel, type Panel } from "./Panel.js";

/** Columns of a table: numbers (typed arrays welcome) or strings, all the same length. */
export type Columns = Readonly<Record<string, ArrayLike<number> | readonly string[]>>;

/** danfo's dtype label of a column: "string", "int32" when every value is an integer, else "float32" (labels only: values stay float64). */
function dtypeOf(col: ArrayLike<number> | readonly string[]): string {
  if (col.length > 0 && typeof col[0] === "string") return "string";
  for (let i = 0; i < col.length; i++) if (!Number.isInteger(col[i])) return "float32";
  return "int32";
}

/**
 * Build a danfo DataFrame from named columns (never through row objects).
 * Values keep full float64 precision: danfo stores the JS numbers as given
 * (its dtype label says "float32"/"int32" but the numbers are not rounded;
 * avoid danfo's tensor-backed arithmetic, which is). Labels: "int32" when
 * every value of a column is an integer, "float32" otherwise (NaN included),
 * "string" for strings.
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
  for (const name of names) {
    const col = columns[name] as ArrayLike<number> | readonly string[];
    if (col.length !== n) {
      throw new InvalidArgumentError(
        "columns",
        `toDataFrame: every column must have ${n} values (like ${JSON.stringify(names[0])}), got ${col.length} in ${JSON.stringify(name)}`,
      );
    }
  }
  const dfd = loadDanfo();
  if (n === 0) return new dfd.DataFrame([], { columns: names });
  // danfo keeps rows and a column-wise copy; building the rows here (one
  // preallocated pass) and giving the dtypes saves it a transpose and its
  // dtype inference, which only looks at the first rows.
  const arrays = names.map((name) => columns[name] as ArrayLike<number> | readonly string[]);
  const dtypes = arrays.map(dtypeOf);
  const m = names.length;
  const rows = new Array<unknown[]>(n);
  for (let i = 0; i < n; i++) {
    const row = new Array<unknown>(m);
    for (let j = 0; j < m; j++) row[j] = (arrays[j] as ArrayLike<unknown>)[i];
    rows[i] = row;
  }
  return new dfd.DataFrame(rows, { columns: names, dtypes });
}
