import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { createPanel, type Panel } from "./Panel.js";
import { sortDedupe } from "./sortDedupe.js";
import { toEpochMs } from "./toEpochMs.js";

/** What `fromDataFrame` needs of a table: danfo's DataFrame has it (duck-typed, so no danfo import). */
export interface ColumnSource {
  readonly columns: readonly string[];
  column(name: string): { readonly values: ArrayLike<unknown> };
}

/** Options of {@link fromDataFrame}. */
export interface FromDataFrameOptions {
  /** Name of the time column (epoch ms, Date or ISO 8601 strings; no offset = UTC; read by `toEpochMs`) ["time"]. */
  readonly time?: string;
  /** Value columns to read [every column whose values are all numbers, numeric strings or missing]. */
  readonly columns?: readonly string[];
  /** Sort by time and keep the last row per duplicate time stamp (see `sortDedupe`) instead of rejecting unsorted or repeated times [false]. */
  readonly sort?: boolean;
}

/** A value as a number: numbers as is, numeric strings parsed, null/undefined/"" -> NaN; `undefined` return = not numeric. */
function numeric(x: unknown): number | undefined {
  if (typeof x === "number") return x;
  if (x === null || x === undefined) return Number.NaN;
  if (typeof x === "string") {
    const s = x.trim();
    if (s === "" || /^(nan|null|none)$/i.test(s)) return Number.NaN;
    const n = Number(s);
    return Number.isNaN(n) ? undefined : n;
  }
  if (typeof x === "boolean") return x ? 1 : 0;
  return undefined;
}

function readNumeric(values: ArrayLike<unknown>): Float64Array | undefined {
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = numeric(values[i]);
    if (v === undefined) return undefined;
    out[i] = v;
  }
  return out;
}

/**
 * Read a danfo DataFrame (or anything with `columns` and
 * `column(name).values`) into a {@link Panel}, column by column (never row
 * objects). Values keep full float64 precision.
 * Rules: numeric strings are parsed and null / "" / "NaN" become NaN; a column
 * with any other string is left out when columns are picked automatically and
 * rejected when named in `columns`. Times must be strictly ascending unless
 * `sort: true`.
 * @throws InvalidArgumentError when the time column is missing or has an unsorted or repeated time, or a named column is missing or not numeric
 * @throws InvalidTimeError naming the column and row of a time that is not one or lies outside 1970..2099 (see `toEpochMs`)
 * @example fromDataFrame(toDataFrame({ time: [0, 60_000], close: [1, 2] })).columns.close // Float64Array [1, 2]
 */
export function fromDataFrame(df: ColumnSource, options: FromDataFrameOptions = {}): Panel {
  if (typeof df !== "object" || df === null || !Array.isArray(df.columns) || typeof df.column !== "function") {
    throw new InvalidArgumentError("df", "fromDataFrame: df must be a danfo DataFrame (or have `columns` and `column(name).values`)");
  }
  const timeName = options.time ?? "time";
  if (!df.columns.includes(timeName)) {
    throw new InvalidArgumentError(
      "time",
      `fromDataFrame: no time column ${JSON.stringify(timeName)} among ${JSON.stringify(df.columns)}; pass { time: "<name>" }`,
    );
  }
  const rawTime = df.column(timeName).values;
  const time = new Float64Array(rawTime.length);
  for (let i = 0; i < rawTime.length; i++) {
    time[i] = toEpochMs(rawTime[i], { source: "fromDataFrame", column: timeName, row: i });
  }
  const cols: Record<string, Float64Array> = {};
  const wanted = options.columns ?? df.columns.filter((c) => c !== timeName);
  for (const name of wanted) {
    if (!df.columns.includes(name)) {
      throw new InvalidArgumentError("columns", `fromDataFrame: no column ${JSON.stringify(name)} among ${JSON.stringify(df.columns)}`);
    }
    const col = readNumeric(df.column(name).values);
    if (col === undefined) {
      if (options.columns === undefined) continue;
      throw new InvalidArgumentError("columns", `fromDataFrame: column ${JSON.stringify(name)} holds non-numeric values; leave it out of columns`);
    }
    cols[name] = col;
  }
  const panel = options.sort === true ? sortDedupe(time, cols).panel : createPanel(time, cols);
  // What a loader said about the rows (e.g. a last candle still open: loadAnalyticsQuery's coverage) stays with them.
  const coverage = (df as { coverage?: unknown }).coverage;
  if (coverage !== undefined) Object.defineProperty(panel, "coverage", { value: coverage, enumerable: false });
  return panel;
}
