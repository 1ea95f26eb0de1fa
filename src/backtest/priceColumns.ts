import { toEpochMs } from "../data/toEpochMs.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";

/**
 * A table the backtest can read its prices from: a Panel of src/data
 * (`{ time, columns }`), a danfo DataFrame (duck-typed: `columns: string[]` and
 * `column(name).values`, so the engine never imports danfo) or plain columns.
 */
export type PriceTable =
  | { readonly time: ArrayLike<number>; readonly columns: Readonly<Record<string, ArrayLike<number>>> }
  | { readonly columns: readonly string[]; column(name: string): { readonly values: ArrayLike<unknown> } }
  | Readonly<Record<string, ArrayLike<number>>>;

/** Dates and time strings by the one time rule (no offset = UTC); NaN when not a time, left to the caller's checks. */
const AS_TIME = { invalid: "nan" } as const;

function toNumbers(values: ArrayLike<unknown>, asTime: boolean): Float64Array {
  if (values instanceof Float64Array) return values;
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v === "number") out[i] = v;
    else if (asTime && (v instanceof Date || typeof v === "string")) out[i] = toEpochMs(v, AS_TIME);
    else out[i] = Number.NaN;
  }
  return out;
}

/**
 * One named column of a {@link PriceTable} as numbers (Dates and ISO strings as epoch ms
 * for `time`), or undefined when the table has no such column.
 * @internal
 */
export function tableColumn(table: PriceTable, name: string, where: string): Float64Array | undefined {
  if (typeof table !== "object" || table === null) {
    throw new InvalidArgumentError("data", `${where}: data must be a Panel, a DataFrame or columns keyed by name, got ${String(table)}`);
  }
  const t = table as Record<string, unknown>;
  let raw: ArrayLike<unknown> | undefined;
  if (Array.isArray(t["columns"]) && typeof t["column"] === "function") {
    const df = table as { columns: readonly string[]; column(name: string): { values: ArrayLike<unknown> } };
    raw = df.columns.includes(name) ? df.column(name).values : undefined;
  } else if (typeof t["columns"] === "object" && t["columns"] !== null && !ArrayBuffer.isView(t["columns"])) {
    raw = name === "time" ? (t["time"] as ArrayLike<unknown> | undefined) : (t["columns"] as Record<string, ArrayLike<unknown>>)[name];
  } else {
    raw = t[name] as ArrayLike<unknown> | undefined;
  }
  return raw === undefined ? undefined : toNumbers(raw, name === "time");
}
