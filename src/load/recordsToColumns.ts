import { toEpochMs } from "../data/toEpochMs.js";

/** Columns made from records: numbers as `number[]` (NaN = missing), everything else as `string[]` ("" = missing). */
export type RecordColumns = Record<string, number[] | string[]>;

type Rec = Record<string, unknown>;

/** A time field is read by the one time rule; a column where some value is not a time stays a string column. */
const AS_TIME = { invalid: "nan" } as const;

function isRecord(x: unknown): x is Rec {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/** Field names whose ISO 8601 string values are read as epoch ms: `time`, `timestamp`, `time_*`, `*_time`, `*_at`. */
export function isTimeField(name: string): boolean {
  return /(^|_)(time|timestamp)$|^time_|_at$/.test(name);
}

function flattenInto(out: Map<string, unknown>, prefix: string, value: unknown, depth: number): void {
  if (isRecord(value) && depth < 4) {
    for (const [k, v] of Object.entries(value)) flattenInto(out, prefix === "" ? k : `${prefix}_${k}`, v, depth + 1);
    return;
  }
  out.set(prefix, value);
}

/**
 * Turn records (e.g. one per coin) into columns, one column per field,
 * column by column. Rules, applied to every endpoint alike:
 * - nested objects are flattened with `_` (`{atr: {"1h": 2}}` -> `atr_1h`);
 * - an array of objects becomes its length, `<name>_count` (e.g. `whale_orders_count`);
 *   an array of plain values becomes one string joined with `"; "`;
 * - a column is numeric when every present value is a number (null, missing
 *   -> NaN); otherwise it is a string column (missing -> "");
 * - ISO 8601 strings in time fields (see {@link isTimeField}) become epoch ms
 *   by `toEpochMs` (no offset = UTC); a time field where some value is not a
 *   time from 1970 to 2099 stays a string column.
 * Column order: first appearance. The records are not modified.
 * @example recordsToColumns([{ coin: "BTC", atr: { "1h": 2 } }]) // { coin: ["BTC"], atr_1h: [2] }
 */
export function recordsToColumns(records: readonly unknown[]): RecordColumns {
  const rows = records.map((r) => {
    const m = new Map<string, unknown>();
    flattenInto(m, "", isRecord(r) ? r : { value: r }, 0);
    return m;
  });
  const names: string[] = [];
  const seen = new Set<string>();
  for (const m of rows) for (const k of m.keys()) if (!seen.has(k)) (seen.add(k), names.push(k));
  const out: RecordColumns = {};
  for (const name of names) {
    const values = rows.map((m) => m.get(name));
    const present = values.filter((v) => v !== null && v !== undefined);
    if (present.length > 0 && present.every(Array.isArray)) {
      const arrays = values as (unknown[] | null | undefined)[];
      if (arrays.some((a) => a?.some(isRecord) === true)) {
        out[`${name}_count`] = arrays.map((a) => (Array.isArray(a) ? a.length : Number.NaN));
      } else {
        out[name] = arrays.map((a) => (Array.isArray(a) ? a.map((x) => (typeof x === "string" ? x : JSON.stringify(x))).join("; ") : ""));
      }
      continue;
    }
    if (present.every((v) => typeof v === "number")) {
      out[name] = values.map((v) => (typeof v === "number" ? v : Number.NaN));
      continue;
    }
    if (present.length > 0 && present.every((v) => typeof v === "boolean")) {
      out[name] = values.map((v) => (v === true ? 1 : v === false ? 0 : Number.NaN));
      continue;
    }
    if (isTimeField(name) && present.every((v) => typeof v === "string" && !Number.isNaN(toEpochMs(v, AS_TIME)))) {
      out[name] = values.map((v) => (typeof v === "string" ? toEpochMs(v, AS_TIME) : Number.NaN));
      continue;
    }
    out[name] = values.map((v) => (v === null || v === undefined ? "" : typeof v === "string" ? v : JSON.stringify(v)));
  }
  return out;
}
