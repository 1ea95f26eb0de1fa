import { schemaMismatch } from "./schemaMismatch.js";
import { toEpochMs } from "./toEpochMs.js";
import { toFiniteNumber } from "./toFiniteNumber.js";
import { collect, sortDedupeHistory, type Collected } from "./sortDedupeHistory.js";

/** Shape a `/v1/history` body came in (names match the replay server's `_variant`s). */
export type HistoryVariant = "wrapped" | "array" | "pairs" | "columnar" | "rows" | "empty";

/** A metric's time series, columnar. */
export interface HistorySeries {
  /** Epoch ms, UTC, strictly ascending. */
  readonly time: Float64Array;
  /** Values, same length as `time`, all finite. */
  readonly value: Float64Array;
  /** Metric id from the envelope or the points, when the body names it. */
  readonly metricId?: string;
  readonly variant: HistoryVariant;
  /** Points removed: missing/unreadable time or value; exact repeats; same time with another value. */
  readonly dropped: { readonly nulls: number; readonly duplicates: number; readonly conflicts: number };
}

const TIME_KEYS = ["time_chain", "time", "timestamp", "t", "date"] as const;
const VALUE_KEYS = ["value", "v", "close", "c"] as const;
const WRAP_KEYS = ["data", "result", "results", "rows", "points", "history", "series", "values", "items"] as const;
const COLUMNAR_TIME = ["time_list", "times", "timestamps"] as const;
const COLUMNAR_VALUE = ["values", "value_list"] as const;

type Rec = Record<string, unknown>;

function isRecord(x: unknown): x is Rec {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

function pickKey(rec: Rec, keys: readonly string[]): string | undefined {
  for (const k of keys) if (rec[k] !== undefined) return k;
  return undefined;
}

function push(c: Collected, time: number, value: number): void {
  if (Number.isNaN(time) || Number.isNaN(value)) {
    c.nulls++;
    return;
  }
  c.t[c.n] = time;
  c.v[c.n] = value;
  c.n++;
}

function fromRecords(points: readonly unknown[]): Collected {
  const c = collect(points.length);
  let tk: string | undefined;
  let vk: string | undefined;
  for (let i = 0; i < points.length; i++) {
    const p = points[i];
    if (!isRecord(p)) {
      c.nulls++;
      continue;
    }
    if (tk === undefined || p[tk] === undefined) tk = pickKey(p, TIME_KEYS);
    if (vk === undefined || p[vk] === undefined) vk = pickKey(p, VALUE_KEYS);
    if (c.metricId === undefined && typeof p["metric_id"] === "string") c.metricId = p["metric_id"];
    push(c, tk === undefined ? Number.NaN : toEpochMs(p[tk]), vk === undefined ? Number.NaN : toFiniteNumber(p[vk]));
  }
  return c;
}

function fromPairs(points: readonly unknown[]): Collected {
  const c = collect(points.length);
  for (let i = 0; i < points.length; i++) {
    const p = points[i];
    if (!Array.isArray(p) || p.length < 2) {
      c.nulls++;
      continue;
    }
    push(c, toEpochMs(p[0]), toFiniteNumber(p[1]));
  }
  return c;
}

function fromColumns(times: readonly unknown[], values: readonly unknown[], endpoint: string): Collected {
  if (times.length !== values.length) {
    throw schemaMismatch(endpoint, [["columnar", `time_list has ${times.length} entries but values has ${values.length}`]]);
  }
  const c = collect(times.length);
  for (let i = 0; i < times.length; i++) push(c, toEpochMs(times[i]), toFiniteNumber(values[i]));
  return c;
}

function fromRows(columns: readonly unknown[], rows: readonly unknown[]): Collected {
  const names = columns.map((x) => String(x));
  const ti = Math.max(0, names.findIndex((x) => (TIME_KEYS as readonly string[]).includes(x)));
  let vi = names.findIndex((x) => (VALUE_KEYS as readonly string[]).includes(x));
  if (vi < 0) vi = ti === 0 ? 1 : 0;
  const c = collect(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    if (!Array.isArray(r)) {
      c.nulls++;
      continue;
    }
    push(c, toEpochMs(r[ti]), toFiniteNumber(r[vi]));
  }
  return c;
}

function fromArray(points: readonly unknown[]): { c: Collected; pairs: boolean } {
  const first = points.find((p) => p !== null && p !== undefined);
  return Array.isArray(first) ? { c: fromPairs(points), pairs: true } : { c: fromRecords(points), pairs: false };
}

function detect(body: unknown, endpoint: string, depth: number): { c: Collected; variant: HistoryVariant } | undefined {
  if (Array.isArray(body)) {
    if (body.length === 0) return { c: collect(0), variant: depth === 0 ? "empty" : "wrapped" };
    const { c, pairs } = fromArray(body);
    return { c, variant: pairs ? "pairs" : depth === 0 ? "array" : "wrapped" };
  }
  if (!isRecord(body)) return undefined;
  const tk = pickKey(body, COLUMNAR_TIME);
  const vk = pickKey(body, COLUMNAR_VALUE);
  if (tk !== undefined && vk !== undefined && Array.isArray(body[tk]) && Array.isArray(body[vk])) {
    return { c: fromColumns(body[tk] as unknown[], body[vk] as unknown[], endpoint), variant: "columnar" };
  }
  if (Array.isArray(body["columns"]) && Array.isArray(body["rows"])) {
    return { c: fromRows(body["columns"] as unknown[], body["rows"] as unknown[]), variant: "rows" };
  }
  if (depth < 2) {
    for (const key of WRAP_KEYS) {
      const inner = body[key];
      if (inner === undefined || inner === null) continue;
      const found = detect(inner, endpoint, depth + 1);
      if (found !== undefined) return found;
    }
  }
  // An envelope with no series in it at all (`{}` or only metadata) is an
  // empty series; one carrying an `error` or unknown arrays is not.
  const hasArray = Object.values(body).some((x) => Array.isArray(x));
  if (depth === 0 && !hasArray && body["error"] === undefined) return { c: collect(0), variant: "empty" };
  return undefined;
}

/**
 * Parse any known `/v1/history` body into a columnar series (pure; the body
 * is not modified). Accepted forms:
 * - a bare array of points `{time_chain|time|timestamp|t|date, value|v|close|c, metric_id?}`;
 * - that array wrapped in `data|result|results|rows|points|history|series|values|items`
 *   (one or two levels deep, e.g. `{result: {data: [...]}}`);
 * - `[t, v]` pairs, bare or wrapped;
 * - columnar `{time_list, values}` or `{columns, rows}` (the time and value
 *   columns are found by the names above, else columns 0 and 1).
 * Times: ISO 8601 (no offset = UTC), unix seconds or ms (see `toEpochMs`),
 * numeric strings. Points with a missing / unreadable time or value are
 * skipped and counted in `dropped.nulls`. The output is sorted ascending;
 * among points with the same time stamp the LAST one in the input is kept,
 * the others are counted as `duplicates` (same value) or `conflicts`
 * (different value). `{}` and `[]` give an empty series.
 * Points are read in a plain loop (no per-point validation objects), so a
 * 43 200-point day of minutes parses in a few milliseconds.
 * @throws SchemaMismatchError when the body is none of these forms
 * @example parseHistory({ data: [{ time_chain: "2026-11-22T12:00:00Z", value: 1 }] }).value // Float64Array [1]
 */
export function parseHistory(body: unknown, endpoint = "/v1/history"): HistorySeries {
  const found = detect(body, endpoint, 0);
  if (found === undefined) {
    throw schemaMismatch(endpoint, [
      ["wrapped|array|pairs|columnar|rows", "no array of points, [t, v] pairs, {time_list, values} or {columns, rows} found"],
    ]);
  }
  const { time, value, duplicates, conflicts } = sortDedupeHistory(found.c);
  const envelopeId = isRecord(body) ? (body["metric_id"] ?? body["metric"]) : undefined;
  const metricId = typeof envelopeId === "string" ? envelopeId : found.c.metricId;
  return {
    time,
    value,
    ...(metricId === undefined ? {} : { metricId }),
    variant: found.variant,
    dropped: { nulls: found.c.nulls, duplicates, conflicts },
  };
}
