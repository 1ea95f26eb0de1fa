import type { AnalyticsResult } from "../api/queryAnalytics.js";
import { responseTimeMs } from "../api/responseTimeMs.js";
import { checkOptionsObject } from "../errors/checkOptionsObject.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { SchemaMismatchError } from "../errors/SchemaMismatchError.js";
import type { RecordColumns } from "./recordsToColumns.js";

/** Shape of an analytics table: `"wide"` (one row per time) or `"long"` (the service's rows). */
export type AnalyticsShape = "wide" | "long";

const PATH = "/v3/analytics/query";
const KEY_COLUMNS = ["coin", "metric_id"] as const;
const TIME_COLUMNS = ["time", "timestamp", "t", "time_chain"] as const;

function columnKind(rows: readonly unknown[][], j: number): "number" | "string" {
  for (const r of rows) {
    const v = r[j];
    if (v === null || v === undefined) continue;
    if (typeof v !== "number") return "string";
  }
  return "number";
}

/**
 * Analytics rows as columns, with `time` as epoch ms (UTC).
 * `"long"`: the service's rows, stably sorted by time, every column kept.
 * `"wide"`: one row per time stamp (sorted, unique): the key columns `coin`
 * and `metric_id` are spread into column names. For the metrics dataset the
 * column is the metric id (`btc_price`; ids already name their coin), for
 * candles and composite it is `<field>` when the result holds one coin and
 * `<coin>_<field>` (`btc_close`) when it holds several. A missing cell is NaN
 * (numbers) or "" (strings). Two rows with the same key and time: the later
 * one wins. Time stamps are the service's (a candle row is labelled by its
 * bar's OPEN, so its values are known one interval later; nothing is shifted).
 * @param options.shape "wide" (default) or "long"
 * @throws SchemaMismatchError when no time column is found or a row has no time
 * @throws InvalidTimeError naming the row of a time that is not one or lies outside 2009..2099 (`responseTimeMs`)
 * @throws InvalidArgumentError when options is not an object or shape is unknown
 * @example analyticsToColumns(await client.analyticsQuery({ dataset: "candles", coin: "BTC" }), { shape: "long" }).close
 */
export function analyticsToColumns(result: Pick<AnalyticsResult, "columns" | "rows" | "variant">, options?: { readonly shape?: AnalyticsShape }): RecordColumns {
  checkOptionsObject(options, "analyticsToColumns", 'analyticsToColumns(result, { shape: "long" })');
  const shape = options?.shape ?? "wide";
  if (shape !== "wide" && shape !== "long") {
    throw new InvalidArgumentError("shape", `analyticsToColumns: shape must be "wide" or "long", got ${JSON.stringify(shape)}`);
  }
  const { columns, rows } = result;
  const ti = columns.findIndex((c) => (TIME_COLUMNS as readonly string[]).includes(c));
  if (ti < 0) {
    if (rows.length === 0 && columns.length === 0) return { time: [] };
    throw new SchemaMismatchError(PATH, "columns", [result.variant], [`no time column (time, timestamp, t, time_chain) among ${JSON.stringify(columns)}`]);
  }
  const n = rows.length;
  const t = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const raw = (rows[i] as unknown[])[ti];
    const ms = responseTimeMs(raw, PATH, `rows[].${columns[ti] as string}`, i);
    if (Number.isNaN(ms)) throw new SchemaMismatchError(PATH, `rows.${i}.${ti}`, [result.variant], [`missing time ${JSON.stringify(raw)}`]);
    t[i] = ms;
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => (t[a] as number) - (t[b] as number) || a - b);
  const kinds = columns.map((_, j) => columnKind(rows, j));
  const cell = (row: unknown[], j: number): number | string => {
    const v = row[j];
    if (kinds[j] === "number") return typeof v === "number" ? v : Number.NaN;
    return v === null || v === undefined ? "" : typeof v === "string" ? v : JSON.stringify(v);
  };
  if (shape === "long") {
    const out: RecordColumns = { time: order.map((i) => t[i] as number) };
    columns.forEach((name, j) => {
      if (j === ti) return;
      out[name] = order.map((i) => cell(rows[i] as unknown[], j)) as number[] | string[];
    });
    return out;
  }
  const keyIdx = KEY_COLUMNS.map((k) => columns.indexOf(k)).filter((j) => j >= 0);
  const metricJ = columns.indexOf("metric_id");
  const coinJ = columns.indexOf("coin");
  const valueIdx = columns.map((_, j) => j).filter((j) => j !== ti && !keyIdx.includes(j));
  const coins = new Set(coinJ < 0 ? [] : rows.map((r) => String(r[coinJ])));
  const times: number[] = [];
  const slot = new Map<number, number>();
  for (const i of order) {
    const ms = t[i] as number;
    if (!slot.has(ms)) (slot.set(ms, times.length), times.push(ms));
  }
  const m = times.length;
  const out: RecordColumns = { time: times };
  const nameOf = (row: unknown[], j: number): string => {
    if (metricJ >= 0) return valueIdx.length === 1 ? String(row[metricJ]) : `${String(row[metricJ])}_${columns[j] as string}`;
    if (coinJ >= 0 && coins.size > 1) return `${String(row[coinJ]).toLowerCase()}_${columns[j] as string}`;
    return columns[j] as string;
  };
  // A row's column names depend only on its key (metric id, or coin): made once per key, with
  // the columns they name (created in the order rows first name them), not once per cell.
  const byKey = new Map<string, (number | string)[][]>();
  const columnsOf = (row: unknown[]): (number | string)[][] => {
    const key = metricJ >= 0 ? String(row[metricJ]) : coinJ >= 0 ? String(row[coinJ]) : "";
    let cols = byKey.get(key);
    if (cols === undefined) {
      cols = valueIdx.map((j) => {
        const name = nameOf(row, j);
        let col = out[name];
        if (col === undefined) {
          col = kinds[j] === "number" ? new Array<number>(m).fill(Number.NaN) : new Array<string>(m).fill("");
          out[name] = col;
        }
        return col as (number | string)[];
      });
      byKey.set(key, cols);
    }
    return cols;
  };
  for (const i of order) {
    const row = rows[i] as unknown[];
    const at = slot.get(t[i] as number) as number;
    const cols = columnsOf(row);
    for (let k = 0; k < valueIdx.length; k++) (cols[k] as (number | string)[])[at] = cell(row, valueIdx[k] as number);
  }
  return out;
}
