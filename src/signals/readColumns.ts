import { toEpochMs } from "../data/toEpochMs.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";

/**
 * What the signal functions accept as a table: plain columns keyed by name
 * (typed arrays or number arrays), a `Panel` (`{ time, columns }`) of src/data,
 * or a danfo DataFrame, duck-typed as an object with `columns: string[]` and
 * `column(name).values` (so signals never imports danfo).
 */
export type ColumnInput =
  | Readonly<Record<string, ArrayLike<number> | readonly unknown[]>>
  | { readonly time?: ArrayLike<number>; readonly columns: Readonly<Record<string, ArrayLike<number>>> }
  | { readonly columns: readonly string[]; column(name: string): { readonly values: ArrayLike<unknown> } };

/** A table read into Float64Array columns (shared, not copied, when already Float64Array). @internal */
export interface ReadColumns {
  readonly length: number;
  readonly time: Float64Array | undefined;
  readonly columns: ReadonlyMap<string, Float64Array>;
}

/** Dates and time strings by the one time rule (no offset = UTC); NaN when not a time, reported by the checks below. */
const AS_TIME = { invalid: "nan" } as const;

/** Convert one column to Float64Array: numbers kept, null/undefined/non-numbers -> NaN, Dates and ISO strings -> epoch ms when `asTime`. @internal */
export function toFloat64(values: ArrayLike<unknown>, asTime = false): Float64Array {
  if (values instanceof Float64Array) return values;
  const n = values.length;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (typeof v === "number") out[i] = v;
    else if (asTime && (v instanceof Date || typeof v === "string")) out[i] = toEpochMs(v, AS_TIME);
    else if (typeof v === "bigint") out[i] = Number(v);
    else out[i] = Number.NaN;
  }
  return out;
}

function isDataFrameLike(x: unknown): x is { columns: readonly string[]; column(name: string): { values: ArrayLike<unknown> } } {
  return (
    typeof x === "object" &&
    x !== null &&
    Array.isArray((x as { columns?: unknown }).columns) &&
    typeof (x as { column?: unknown }).column === "function"
  );
}

function isPanelLike(x: unknown): x is { time?: ArrayLike<number>; columns: Record<string, ArrayLike<number>> } {
  if (typeof x !== "object" || x === null) return false;
  const cols = (x as { columns?: unknown }).columns;
  return typeof cols === "object" && cols !== null && !Array.isArray(cols) && !ArrayBuffer.isView(cols);
}

/**
 * Read a table into Float64Array columns keyed by name, checking every column
 * has the same length and, when `ascending` (the default, for functions that
 * look back in time), that `time` ascends strictly. Row-wise functions pass
 * `ascending: false` so a table of several coins' rows is accepted.
 * @internal
 */
export function readColumns(input: ColumnInput, where: string, options: { ascending?: boolean } = {}): ReadColumns {
  if (typeof input !== "object" || input === null) {
    throw new InvalidArgumentError("input", `${where}: input must be columns keyed by name, a Panel or a DataFrame, got ${String(input)}`);
  }
  const raw = new Map<string, ArrayLike<unknown>>();
  if (isDataFrameLike(input)) {
    for (const name of input.columns) raw.set(name, input.column(name).values);
  } else if (isPanelLike(input)) {
    const t = (input as { time?: ArrayLike<number> }).time;
    if (t !== undefined) raw.set("time", t);
    for (const [name, col] of Object.entries(input.columns)) raw.set(name, col);
  } else {
    for (const [name, col] of Object.entries(input as Record<string, unknown>)) {
      if (col === undefined) continue;
      if (typeof col !== "object" || col === null || typeof (col as ArrayLike<unknown>).length !== "number") {
        throw new InvalidArgumentError("input", `${where}: column ${name} must be an array of numbers, got ${typeof col}`);
      }
      raw.set(name, col as ArrayLike<unknown>);
    }
  }
  let length = -1;
  let first = "";
  const columns = new Map<string, Float64Array>();
  let time: Float64Array | undefined;
  for (const [name, col] of raw) {
    if (length < 0) {
      length = col.length;
      first = name;
    } else if (col.length !== length) {
      throw new InvalidArgumentError(
        "input",
        `${where}: every column must have the same length, got ${length} in ${first} and ${col.length} in ${name}`,
      );
    }
    if (name === "time") time = toFloat64(col, true);
    else columns.set(name, toFloat64(col));
  }
  if (time !== undefined && (options.ascending ?? true)) checkTime(time, where);
  else if (time !== undefined) {
    for (let i = 0; i < time.length; i++) {
      if (Number.isNaN(time[i] as number)) {
        throw new InvalidArgumentError("time", `${where}: time must be epoch milliseconds or ISO strings, got ${String(raw.get("time")?.[i])} at row ${i}`);
      }
    }
  }
  return { length: Math.max(0, length), time, columns };
}

/** Throw unless `time` is finite and strictly ascending. @internal */
export function checkTime(time: ArrayLike<number>, where: string): void {
  for (let i = 0; i < time.length; i++) {
    const t = time[i] as number;
    if (!Number.isFinite(t)) {
      throw new InvalidArgumentError("time", `${where}: time must be finite epoch milliseconds, got ${t} at row ${i}`);
    }
    if (i > 0 && !(t > (time[i - 1] as number))) {
      throw new InvalidArgumentError(
        "time",
        `${where}: time must ascend strictly, got ${time[i - 1]} then ${t} at row ${i} (sort and de-duplicate first)`,
      );
    }
  }
}

/** One column of a table as given (strings kept), or undefined when absent. @internal */
export function rawColumn(input: ColumnInput, name: string): ArrayLike<unknown> | undefined {
  if (isDataFrameLike(input)) return input.columns.includes(name) ? input.column(name).values : undefined;
  if (isPanelLike(input)) {
    if (name === "time") return (input as { time?: ArrayLike<number> }).time;
    return input.columns[name];
  }
  return (input as Record<string, ArrayLike<unknown> | undefined>)[name];
}
