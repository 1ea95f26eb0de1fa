import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { barIntervalMs, type BarInterval } from "./barInterval.js";
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
}

/** Bucket index of each time and the bar list; shared by resample and resampleOHLC. @internal */
export function bucketTimes(
  time: ArrayLike<number>,
  intervalMs: number,
  where: string,
): { bar: Int32Array | Float64Array; first: number; bars: number } {
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
    bar[i] = Math.floor(t / intervalMs);
  }
  if (n === 0) return { bar, first: 0, bars: 0 };
  const first = bar[0] as number;
  for (let i = 0; i < n; i++) bar[i] = (bar[i] as number) - first;
  return { bar, first, bars: (bar[n - 1] as number) + 1 };
}

/** Keep bars with data (or all), stamp them; shared by resample and resampleOHLC. @internal */
export function finishBars(
  first: number,
  bars: number,
  intervalMs: number,
  hasData: Uint8Array,
  columns: Record<string, Float64Array>,
  label: "open" | "close",
  emptyBars: "nan" | "drop",
): Panel {
  const keep: number[] = [];
  for (let b = 0; b < bars; b++) if (emptyBars === "nan" || hasData[b] === 1) keep.push(b);
  const shift = label === "close" ? 1 : 0;
  const time = Float64Array.from(keep, (b) => (first + b + shift) * intervalMs);
  const out: Record<string, Float64Array> = {};
  for (const [name, col] of Object.entries(columns)) {
    out[name] = keep.length === bars ? col : Float64Array.from(keep, (b) => col[b] as number);
  }
  return { time, columns: out };
}

/** Check the label and emptyBars options. @internal */
export function barOptions(where: string, label: unknown, emptyBars: unknown): { label: "open" | "close"; emptyBars: "nan" | "drop" } {
  const l = label ?? "open";
  const e = emptyBars ?? "nan";
  if (l !== "open" && l !== "close") throw new InvalidArgumentError("label", `${where}: label must be "open" or "close", got ${JSON.stringify(label)}`);
  if (e !== "nan" && e !== "drop") throw new InvalidArgumentError("emptyBars", `${where}: emptyBars must be "nan" or "drop", got ${JSON.stringify(emptyBars)}`);
  return { label: l, emptyBars: e };
}

/**
 * Resample irregular or fine-grained series into fixed bars: each bar
 * [start, start + interval) reduces its values by `last`, `first`, `mean`,
 * `sum`, `max`, `min` or `count`. NaN values are skipped; a bar with no
 * finite value gives NaN for every aggregation except `count` (0) — unlike
 * pandas, whose `sum()` of an empty bin is 0 (`min_count=1` matches this).
 * A bar's values are complete only at its end: stamp it there with
 * `label: "close"` before aligning it with other feeds, or use
 * `knownAfterMs: interval` in `alignAsOf`.
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
  const { label, emptyBars } = barOptions(where, options.label, options.emptyBars);
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
  const { bar, first, bars } = bucketTimes(time, step, where);
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
  return finishBars(first, bars, step, hasData, out, label, emptyBars);
}
