import { withInspect } from "../domain/withInspect.js";
import { panelText } from "./panelText.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { barIntervalMs, type BarInterval } from "./barInterval.js";
import { lastBarComplete } from "./lastBarComplete.js";
import { medianSpacing } from "./medianSpacing.js";
import type { Panel } from "./Panel.js";

/** How `resample` reduces the values of one bar. */
export type Aggregation = "last" | "first" | "mean" | "sum" | "max" | "min" | "count";

const AGGREGATIONS: readonly Aggregation[] = ["last", "first", "mean", "sum", "max", "min", "count"];

/** Options of {@link resample}. */
export interface ResampleOptions {
  /** Bar length: "1m", "5m", "15m", "1h", "4h", "1d" or ms. Bars start at multiples of it since the epoch (UTC days, 4 h bars at 00, 04, ...). */
  readonly interval: BarInterval;
  /** One aggregation for every column, or one per column (others: `"last"`) ["last"]. */
  readonly how?: Aggregation | Readonly<Record<string, Aggregation>>;
  /** `"open"`: a bar is stamped with its start (pandas' default); `"close"`: with its end, the time it is complete and known ["open"]. */
  readonly label?: "open" | "close";
  /** `"nan"`: every bar from the first to the last with data, empty ones NaN (count 0); `"drop"`: only bars with data ["nan"]. */
  readonly emptyBars?: "nan" | "drop";
  /**
   * Which end of a bar belongs to it (pandas' `closed`): `"left"`, [start, end), for times stamped at
   * the open of what they measure; `"right"`, (start, end], for times stamped at the close (a minute
   * bar stamped 00:01 belongs to the hour ending 01:00) ["left"].
   */
  readonly closed?: "left" | "right";
  /**
   * The last bar when the data ends before it does ({@link BarOptions}): `"drop"` it (its values would
   * be a few inputs presented as a whole bar) or `"keep"` it (pandas and Polars keep it) ["drop"].
   */
  readonly partialLastBar?: "drop" | "keep";
  /**
   * The last input row is itself a bar still open when loaded (a loader's `coverage.partialLastBar`;
   * `resampleOHLC` of a Panel reads it from the Panel): the bar holding it is partial (lastBarComplete) [false].
   */
  readonly lastInputPartial?: boolean;
}

/** The bar options resample and resampleOHLC share, checked. @internal */
export interface BarOptions {
  readonly label: "open" | "close";
  readonly emptyBars: "nan" | "drop";
  readonly closed: "left" | "right";
  readonly partialLastBar: "drop" | "keep";
  readonly lastInputPartial: boolean;
}

/**
 * Bucket index of each time and the bar list; shared by resample and resampleOHLC. Bar k covers
 * [k·interval, (k+1)·interval) when `closed` is "left", (k·interval, (k+1)·interval] when "right".
 * `last` is the last time, `spacing` the median spacing of the distinct times (NaN with fewer than 2).
 * @internal
 */
export function bucketTimes(
  time: ArrayLike<number>,
  intervalMs: number,
  where: string,
  closed: "left" | "right" = "left",
): { bar: Int32Array | Float64Array; first: number; bars: number; last: number; spacing: number } {
  const n = time.length;
  const bar = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const t = time[i] as number;
    if (typeof t !== "number" || !Number.isFinite(t)) {
      throw new InvalidArgumentError("time", `${where}: time must be finite epoch ms, got ${String(t)} at index ${i}`);
    }
    if (i > 0 && t < (time[i - 1] as number)) {
      throw new InvalidArgumentError("time", `${where}: time must be ascending, got ${t} after ${time[i - 1] as number} at index ${i}; sort it first (sortDedupe)`);
    }
    bar[i] = closed === "left" ? Math.floor(t / intervalMs) : Math.ceil(t / intervalMs) - 1;
  }
  if (n === 0) return { bar, first: 0, bars: 0, last: Number.NaN, spacing: Number.NaN };
  const first = bar[0] as number;
  for (let i = 0; i < n; i++) bar[i] = (bar[i] as number) - first;
  const distinct: number[] = [];
  for (let i = 0; i < n; i++) if (i === 0 || (time[i] as number) !== (time[i - 1] as number)) distinct.push(time[i] as number);
  return { bar, first, bars: (bar[n - 1] as number) + 1, last: time[n - 1] as number, spacing: medianSpacing(distinct) };
}

/** Keep bars with data (or all), drop a partial last bar (unless kept), stamp them; shared by resample and resampleOHLC. @internal */
export function finishBars(
  buckets: { readonly first: number; readonly bars: number; readonly last: number; readonly spacing: number },
  intervalMs: number,
  hasData: Uint8Array,
  columns: Record<string, Float64Array>,
  options: BarOptions,
): Panel {
  const { first, last, spacing } = buckets;
  const { label, emptyBars, closed, partialLastBar, lastInputPartial } = options;
  let bars = buckets.bars;
  if (bars > 0 && partialLastBar === "drop" && !lastBarComplete(last, spacing, (first + bars) * intervalMs, closed, { lastInputPartial })) bars--;
  const keep: number[] = [];
  for (let b = 0; b < bars; b++) if (emptyBars === "nan" || hasData[b] === 1) keep.push(b);
  const shift = label === "close" ? 1 : 0;
  const time = Float64Array.from(keep, (b) => (first + b + shift) * intervalMs);
  const out: Record<string, Float64Array> = {};
  for (const [name, col] of Object.entries(columns)) {
    out[name] = keep.length === col.length ? col : Float64Array.from(keep, (b) => col[b] as number);
  }
  const panel: Panel = { time, columns: out };
  return withInspect(panel, () => panelText(panel));
}

/** Check the label, emptyBars, closed and partialLastBar options. @internal */
export function barOptions(
  where: string,
  options: { readonly label?: unknown; readonly emptyBars?: unknown; readonly closed?: unknown; readonly partialLastBar?: unknown; readonly lastInputPartial?: unknown },
): BarOptions {
  const pick = <T extends string | boolean>(name: string, value: unknown, allowed: readonly T[]): T => {
    const v = value ?? allowed[0];
    if (!allowed.includes(v as T)) throw new InvalidArgumentError(name, `${where}: ${name} must be ${allowed.map((a) => JSON.stringify(a)).join(" or ")}, got ${JSON.stringify(value)}`);
    return v as T;
  };
  return {
    label: pick("label", options.label, ["open", "close"] as const),
    emptyBars: pick("emptyBars", options.emptyBars, ["nan", "drop"] as const),
    closed: pick("closed", options.closed, ["left", "right"] as const),
    partialLastBar: pick("partialLastBar", options.partialLastBar, ["drop", "keep"] as const),
    lastInputPartial: pick("lastInputPartial", options.lastInputPartial, [false, true] as const),
  };
}

/**
 * Resample irregular or fine-grained series into fixed bars: each bar
 * [start, start + interval) reduces its values by `last`, `first`, `mean`,
 * `sum`, `max`, `min` or `count`. NaN values are skipped; a bar with no
 * finite value gives NaN for every aggregation except `count` (0) — unlike
 * pandas, whose `sum()` of an empty bin is 0 (`min_count=1` matches this).
 * A bar's values are complete only at its end: stamp it there with
 * `label: "close"` before aligning it with other feeds, or use
 * `knownAfterMs: interval` in `alignAsOf`. `closed` says which end of a bar
 * a time on its boundary belongs to (pandas' `closed`). A last bar the data
 * does not fill to its end (minutes ending at 01:01 make an hour bar of two
 * minutes) is dropped unless `partialLastBar: "keep"`, and so is the bar
 * holding an input row that was itself still open (`lastInputPartial`): the
 * library's one partial-bar rule, lastBarComplete.
 * With `partialLastBar: "keep"` the bars are pandas' `resample(interval,
 * closed, label)` bins.
 * @param time epoch ms, ascending (repeats allowed)
 * @throws InvalidArgumentError for unsorted or non-finite times, a column of the wrong length, an unknown interval or aggregation
 * @example
 * resample([0, 60_000, 120_000, 360_000], { x: [1, 2, 3, 4] }, { interval: "5m", how: "mean" }).columns.x
 * // Float64Array [2, 4]   (bars at 0 and 300 000)
 */
export function resample(time: ArrayLike<number>, columns: Readonly<Record<string, ArrayLike<number>>>, options: ResampleOptions): Panel {
  const where = "resample";
  if (typeof options !== "object" || options === null) {
    throw new InvalidArgumentError("options", `${where}: options must be an object like { interval: "1h", how: "last" }`);
  }
  const step = barIntervalMs(options.interval, where);
  const bar0 = barOptions(where, options);
  const how = options.how ?? "last";
  const aggOf = (name: string): Aggregation => {
    const a = typeof how === "string" ? how : (how[name] ?? "last");
    if (!AGGREGATIONS.includes(a)) {
      throw new InvalidArgumentError("how", `${where}: how must be one of ${AGGREGATIONS.join(", ")}, got ${JSON.stringify(a)} for ${JSON.stringify(name)}`);
    }
    return a;
  };
  const n = time.length;
  for (const [name, col] of Object.entries(columns)) {
    if (col.length !== n) throw new InvalidArgumentError("columns", `${where}: column ${JSON.stringify(name)} has ${col.length} values, expected ${n}`);
    aggOf(name);
  }
  const buckets = bucketTimes(time, step, where, bar0.closed);
  const { bar, bars } = buckets;
  const hasData = new Uint8Array(bars);
  for (let i = 0; i < n; i++) hasData[bar[i] as number] = 1;
  const out: Record<string, Float64Array> = {};
  for (const [name, col] of Object.entries(columns)) {
    const agg = aggOf(name);
    const res = new Float64Array(bars).fill(agg === "count" ? 0 : Number.NaN);
    const cnt = new Float64Array(bars);
    for (let i = 0; i < n; i++) {
      const v = col[i] as number;
      if (Number.isNaN(v)) continue;
      const b = bar[i] as number;
      const c = cnt[b] as number;
      const r = res[b] as number;
      switch (agg) {
        case "last":
          res[b] = v;
          break;
        case "first":
          if (c === 0) res[b] = v;
          break;
        case "sum":
        case "mean":
          res[b] = c === 0 ? v : r + v;
          break;
        case "max":
          res[b] = c === 0 || v > r ? v : r;
          break;
        case "min":
          res[b] = c === 0 || v < r ? v : r;
          break;
        case "count":
          res[b] = r + 1;
          break;
      }
      cnt[b] = c + 1;
    }
    if (agg === "mean") for (let b = 0; b < bars; b++) if ((cnt[b] as number) > 0) res[b] = (res[b] as number) / (cnt[b] as number);
    out[name] = res;
  }
  return finishBars(buckets, step, hasData, out, bar0);
}
