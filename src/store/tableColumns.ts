import type { ColumnSource } from "../data/fromDataFrame.js";
import { isPanel, type Panel } from "../data/Panel.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { toTime } from "./timeBound.js";

/** What `writeParquet` and the exports accept: a Panel, a danfo DataFrame, or any result with `toDataFrame()`. */
export type TableInput = Panel | ColumnSource | { toDataFrame(): ColumnSource };

/** A table ready to write: an optional time column (epoch ms) and named number or string columns. */
export interface TableColumns {
  readonly time?: Float64Array;
  readonly columns: Readonly<Record<string, Float64Array | readonly (string | null)[]>>;
}

/** A danfo DataFrame (or anything with `columns` names and `column(name).values`). @internal */
export function isColumnSource(x: unknown): x is ColumnSource {
  return typeof x === "object" && x !== null && Array.isArray((x as ColumnSource).columns) && typeof (x as ColumnSource).column === "function";
}

/** A column's values as numbers (null/undefined -> NaN, booleans 0/1) or, if any value is something else, as strings (null kept). */
function readColumn(values: ArrayLike<unknown>): Float64Array | (string | null)[] {
  const n = values.length;
  const num = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (typeof v === "number") num[i] = v;
    else if (v === null || v === undefined) num[i] = Number.NaN;
    else if (typeof v === "boolean") num[i] = v ? 1 : 0;
    else {
      return Array.from(values, (x) => (x === null || x === undefined || (typeof x === "number" && Number.isNaN(x)) ? null : typeof x === "string" ? x : x instanceof Date ? x.toISOString() : typeof x === "object" ? JSON.stringify(x) : String(x)));
    }
  }
  return num;
}

/**
 * The columns of a table to write, whatever its form. A Panel gives its
 * `time` and columns as they are (not copied). A DataFrame (or a result's
 * `toDataFrame()`) gives its time column `timeColumn` read by the library's
 * one time rule (`toTime`, i.e. `toEpochMs`: epoch ms, Date or ISO 8601, no offset =
 * UTC), and every other column as numbers when all its values are numbers or
 * missing, else as strings.
 * @throws InvalidArgumentError when the input is none of those, or a time is unreadable
 * @internal
 */
export function tableColumns(table: TableInput, where: string, timeColumn = "time"): TableColumns {
  if (isPanel(table)) return { time: table.time, columns: table.columns };
  let df: unknown = table;
  if (!isColumnSource(df) && typeof df === "object" && df !== null && typeof (df as { toDataFrame?: unknown }).toDataFrame === "function") {
    df = (df as { toDataFrame(): unknown }).toDataFrame();
  }
  if (!isColumnSource(df)) {
    throw new InvalidArgumentError("table", `${where}: table must be a Panel ({ time, columns }), a danfo DataFrame or a result with toDataFrame(), got ${df === null ? "null" : typeof df}`);
  }
  const columns: Record<string, Float64Array | (string | null)[]> = {};
  let time: Float64Array | undefined;
  for (const name of df.columns) {
    const values = df.column(name).values;
    if (name === timeColumn) {
      time = new Float64Array(values.length);
      for (let i = 0; i < values.length; i++) {
        const t = toTime(values[i]);
        if (Number.isNaN(t)) {
          throw new InvalidArgumentError("table", `${where}: unreadable time ${JSON.stringify(values[i])} at row ${i} of column ${JSON.stringify(name)}; times must be epoch ms, Dates or ISO 8601 strings`);
        }
        time[i] = t;
      }
      continue;
    }
    columns[name] = readColumn(values);
  }
  return time === undefined ? { columns } : { time, columns };
}
