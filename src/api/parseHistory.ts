import { finishHistory, historyPoints, pushPoint, type HistoryPoints, type HistorySeries, type HistoryVariant } from "./historyPoints.js";
import { responseTimeMs } from "./responseTimeMs.js";
import { schemaMismatch } from "./schemaMismatch.js";
import { toFiniteNumber } from "./toFiniteNumber.js";

export type { HistorySeries, HistoryVariant } from "./historyPoints.js";

const TIME_KEYS = ["time_chain", "time", "timestamp", "t", "date"] as const;
const VALUE_KEYS = ["value", "v", "close", "c"] as const;
const WRAP_KEYS = ["data", "result", "results", "rows", "points", "history", "series", "values", "items"] as const;
const COLUMNAR_TIME = ["time_list", "times", "timestamps"] as const;
const COLUMNAR_VALUE = ["values", "value_list"] as const;
/** Keys an envelope with no points may carry and still be an empty series (anything else, e.g. `error` or `message`, is not a series). */
const METADATA_KEYS = new Set(["coin", "metric_id", "metric", "hours", "interval_sec", "interval", "start", "end", "count", "unit", "symbol"]);

type Rec = Record<string, unknown>;

function isRecord(x: unknown): x is Rec {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

function pickKey(rec: Rec, keys: readonly string[]): string | undefined {
  for (const k of keys) if (rec[k] !== undefined) return k;
  return undefined;
}

/** Where the points' times are read: the endpoint named by a time error. */
interface TimeSite {
  readonly source: string;
}

/** A point's time by the API's time rule (see responseTimeMs): NaN when missing (a null point); a bad or out-of-range time throws, naming endpoint, field and row. */
function timeAt(x: unknown, site: TimeSite, column: string, row: number): number {
  return responseTimeMs(x, site.source, column, row);
}

function fromRecords(points: readonly unknown[], path: string, site: TimeSite): { p: HistoryPoints; metricId: string | undefined } {
  const p = historyPoints(points.length);
  let tk: string | undefined;
  let vk: string | undefined;
  let metricId: string | undefined;
  let field = "";
  for (let i = 0; i < points.length; i++) {
    const r = points[i];
    if (!isRecord(r)) {
      p.nulls++;
      continue;
    }
    if (tk === undefined || r[tk] === undefined) {
      tk = pickKey(r, TIME_KEYS);
      field = `${path}${tk}`;
    }
    if (vk === undefined || r[vk] === undefined) vk = pickKey(r, VALUE_KEYS);
    if (metricId === undefined && typeof r["metric_id"] === "string") metricId = r["metric_id"];
    pushPoint(p, tk === undefined ? Number.NaN : timeAt(r[tk], site, field, i), vk === undefined ? Number.NaN : toFiniteNumber(r[vk]));
  }
  return { p, metricId };
}

function fromPairs(points: readonly unknown[], path: string, site: TimeSite): HistoryPoints {
  const p = historyPoints(points.length);
  const field = `${path}[0]`;
  for (let i = 0; i < points.length; i++) {
    const r = points[i];
    if (!Array.isArray(r) || r.length < 2) {
      p.nulls++;
      continue;
    }
    pushPoint(p, timeAt(r[0], site, field, i), toFiniteNumber(r[1]));
  }
  return p;
}

function fromColumns(times: readonly unknown[], values: readonly unknown[], timeKey: string, site: TimeSite): HistoryPoints {
  if (times.length !== values.length) {
    throw schemaMismatch(site.source, [["columnar", `${timeKey} has ${times.length} entries but values has ${values.length}`]]);
  }
  const p = historyPoints(times.length);
  for (let i = 0; i < times.length; i++) pushPoint(p, timeAt(times[i], site, timeKey, i), toFiniteNumber(values[i]));
  return p;
}

function fromRows(columns: readonly unknown[], rows: readonly unknown[], site: TimeSite): HistoryPoints {
  const names = columns.map((x) => String(x));
  const ti = Math.max(0, names.findIndex((x) => (TIME_KEYS as readonly string[]).includes(x)));
  let vi = names.findIndex((x) => (VALUE_KEYS as readonly string[]).includes(x));
  if (vi < 0) vi = ti === 0 ? 1 : 0;
  const p = historyPoints(rows.length);
  const field = `rows[].${names[ti] ?? ti}`;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    if (!Array.isArray(r)) {
      p.nulls++;
      continue;
    }
    pushPoint(p, timeAt(r[ti], site, field, i), toFiniteNumber(r[vi]));
  }
  return p;
}

interface Found {
  p: HistoryPoints;
  variant: HistoryVariant;
  metricId: string | undefined;
}

function fromArray(points: readonly unknown[], path: string, depth: number, site: TimeSite): Found {
  if (points.length === 0) return { p: historyPoints(0), variant: depth === 0 ? "empty" : "wrapped", metricId: undefined };
  const first = points.find((x) => x !== null && x !== undefined);
  if (Array.isArray(first)) return { p: fromPairs(points, path, site), variant: "pairs", metricId: undefined };
  const { p, metricId } = fromRecords(points, path, site);
  return { p, variant: depth === 0 ? "array" : "wrapped", metricId };
}

function detect(body: unknown, path: string, depth: number, site: TimeSite): Found | undefined {
  if (Array.isArray(body)) return fromArray(body, path === "" ? "" : `${path}[].`, depth, site);
  if (!isRecord(body)) return undefined;
  const tk = pickKey(body, COLUMNAR_TIME);
  const vk = pickKey(body, COLUMNAR_VALUE);
  if (tk !== undefined && vk !== undefined && Array.isArray(body[tk]) && Array.isArray(body[vk])) {
    return { p: fromColumns(body[tk] as unknown[], body[vk] as unknown[], tk, site), variant: "columnar", metricId: undefined };
  }
  if (Array.isArray(body["columns"]) && Array.isArray(body["rows"])) {
    return { p: fromRows(body["columns"] as unknown[], body["rows"] as unknown[], site), variant: "rows", metricId: undefined };
  }
  if (depth < 2) {
    for (const key of WRAP_KEYS) {
      const inner = body[key];
      if (inner === undefined || inner === null) continue;
      const found = detect(inner, path === "" ? key : `${path}.${key}`, depth + 1, site);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** `{}` or an envelope of metadata only (`{metric_id, hours}`, `{data: null}`): a series with no points. */
function isEmptyEnvelope(body: Rec): boolean {
  return Object.entries(body).every(([k, v]) => (METADATA_KEYS.has(k) && !isRecord(v) && !Array.isArray(v)) || ((WRAP_KEYS as readonly string[]).includes(k) && v === null));
}

/**
 * Parse any known `/v1/history` body into a columnar series (pure; the body
 * is not modified). This is the one history parser: the client's byte scanner
 * (`scanHistoryBytes`) is its fast path for the service's own shape, and
 * shares its point rule, sort/dedupe and result (`historyPoints.ts`).
 * Accepted forms:
 * - a bare array of points `{time_chain|time|timestamp|t|date, value|v|close|c, metric_id?}`;
 * - that array wrapped in `data|result|results|rows|points|history|series|values|items`
 *   (one or two levels deep, e.g. `{result: {data: [...]}}`);
 * - `[t, v]` pairs, bare or wrapped;
 * - columnar `{time_list, values}` or `{columns, rows}` (the time and value
 *   columns are found by the names above, else columns 0 and 1).
 * Times go through the library's one time rule (`toEpochMs`): ISO 8601 (no
 * offset = UTC), numbers and numeric strings as unix seconds when below 1e11
 * else ms, and they must lie in `API_TIME_RANGE` (2009..2099). Points
 * with a missing time or a missing / unreadable value are skipped and counted
 * in `dropped.nulls`. The output is sorted ascending; among points with the
 * same time stamp the LAST one in the input is kept, the others are counted
 * as `duplicates` (same value) or `conflicts` (different value). `[]`, `{}`
 * and an envelope of metadata only (`{metric_id, hours}`) are an empty series.
 * @throws SchemaMismatchError when the body is none of these forms: a string,
 * a number, null, an object with an `error` (or `message`, `detail`, ...) and
 * no points, or a wrapper holding something other than points
 * @throws InvalidTimeError naming the endpoint, the field and the row of a
 * time that is not a time or lies outside `API_TIME_RANGE` (e.g. 1e20, -1, year 3000)
 * @example parseHistory({ data: [{ time_chain: "2026-11-22T12:00:00Z", value: 1 }] }).value // Float64Array [1]
 */
export function parseHistory(body: unknown, endpoint = "/v1/history"): HistorySeries {
  const site: TimeSite = { source: endpoint };
  const refused = isRecord(body) && body["error"] !== undefined && body["error"] !== null && body["error"] !== false;
  const found = refused ? undefined : detect(body, "", 0, site);
  if (found === undefined) {
    if (!refused && isRecord(body) && isEmptyEnvelope(body)) return finishHistory(historyPoints(0), "empty", envelopeMetricId(body));
    throw schemaMismatch(endpoint, [
      [
        "wrapped|array|pairs|columnar|rows",
        refused
          ? `the body reports an error: ${JSON.stringify(body["error"]).slice(0, 200)}`
          : "no array of points, [t, v] pairs, {time_list, values} or {columns, rows} found",
      ],
    ]);
  }
  return finishHistory(found.p, found.variant, (isRecord(body) ? envelopeMetricId(body) : undefined) ?? found.metricId);
}

/** The series' metric id from an envelope: `metric_id`, else `metric`, when a string. @internal */
export function envelopeMetricId(envelope: Readonly<Record<string, unknown>>): string | undefined {
  const id = envelope["metric_id"] ?? envelope["metric"];
  return typeof id === "string" ? id : undefined;
}
