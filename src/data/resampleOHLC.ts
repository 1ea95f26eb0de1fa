import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { barIntervalMs, type BarInterval } from "./barInterval.js";
import { isPanel, type Panel } from "./Panel.js";
import { barOptions, bucketTimes, finishBars } from "./resample.js";
import { partialLastBarOf } from "./partialLastBarOf.js";

/** Options of {@link resampleOHLC}. */
export interface ResampleOHLCOptions {
  /** Bar length: "1m", "5m", "15m", "1h", "4h", "1d" or ms (bars start at multiples of it since the epoch, UTC). */
  readonly interval: BarInterval;
  /** `"open"`: stamp each bar with its start; `"close"`: with its end, when it is known ["open"]. */
  readonly label?: "open" | "close";
  /** `"nan"`: every bar from first to last, empty ones NaN (volume NaN too); `"drop"`: only bars with data ["nan"]. */
  readonly emptyBars?: "nan" | "drop";
  /** `"left"`: a bar is [start, end); `"right"`: (start, end], for times stamped at the close ["left"] (as resample). */
  readonly closed?: "left" | "right";
  /** `"drop"`: a last bar the data does not fill to its end is left out; `"keep"`: kept ["drop"] (as resample). */
  readonly partialLastBar?: "drop" | "keep";
  /** The last input bar was still open when loaded: the bar holding it is partial (as resample) [a Panel's `coverage.partialLastBar`, else false]. */
  readonly lastInputPartial?: boolean;
}

/** Prices to turn into bars: one price series (ticks, minute marks), or finer bars. */
export type OHLCInput =
  | ArrayLike<number>
  | { readonly open: ArrayLike<number>; readonly high: ArrayLike<number>; readonly low: ArrayLike<number>; readonly close: ArrayLike<number>; readonly volume?: ArrayLike<number> };

/**
 * Resample prices into OHLC bars (1m, 5m, 15m, 1h, 4h, 1d or any ms):
 * from a price series, open = first, high = max, low = min, close = last
 * finite price of the bar (pandas' `resample(...).ohlc()`); from finer bars,
 * open = first open, high = max high, low = min low, close = last close and
 * volume = sum. NaN values are skipped. Output columns `open, high, low,
 * close` (+ `volume` when given, + `count` of input rows with a finite close).
 * A bar is known only at its end (see `label`); a last bar the data does not
 * fill is dropped unless `partialLastBar: "keep"` (the rule of `resample`).
 * @param time epoch ms, ascending
 * @throws InvalidArgumentError for unsorted or non-finite times, mismatched lengths or a bad option
 * @example resampleOHLC([0, 60_000, 120_000], [10, 12, 11], { interval: "5m" }).columns.high // Float64Array [12]
 */
export function resampleOHLC(time: ArrayLike<number>, prices: OHLCInput, options: ResampleOHLCOptions): Panel;
/** A Panel of bars (`open, high, low, close`, optional `volume`), e.g. `resampleOHLC(loadRealCandles("coinbase-eth-4h"), { interval: "1d" })`. */
export function resampleOHLC(bars: Panel, options: ResampleOHLCOptions): Panel;
export function resampleOHLC(
  first: ArrayLike<number> | Panel,
  second: OHLCInput | ResampleOHLCOptions,
  third?: ResampleOHLCOptions,
): Panel {
  if (isPanel(first)) {
    const c = first.columns;
    const bars = { open: c["open"], high: c["high"], low: c["low"], close: c["close"], ...(c["volume"] === undefined ? {} : { volume: c["volume"] }) };
    // A Panel a loader flagged (its last candle still open, fromDataFrame carries `coverage`) says so itself.
    const options = second as ResampleOHLCOptions;
    const flagged = partialLastBarOf(first) && typeof options === "object" && options !== null && options.lastInputPartial === undefined;
    return resampleBars(first.time, bars as OHLCInput, flagged ? { ...options, lastInputPartial: true } : options);
  }
  return resampleBars(first, second as OHLCInput, third as ResampleOHLCOptions);
}

function resampleBars(time: ArrayLike<number>, prices: OHLCInput, options: ResampleOHLCOptions): Panel {
  const where = "resampleOHLC";
  if (typeof options !== "object" || options === null) {
    throw new InvalidArgumentError("options", `${where}: options must be an object like { interval: "1h" }`);
  }
  const step = barIntervalMs(options.interval, where);
  const barOpts = barOptions(where, options);
  if (typeof prices !== "object" || prices === null) {
    throw new InvalidArgumentError("prices", `${where}: prices must be a series or { open, high, low, close, volume? }, got ${JSON.stringify(prices)}`);
  }
  const isSeries = typeof (prices as ArrayLike<number>).length === "number";
  const p = prices as Exclude<OHLCInput, ArrayLike<number>>;
  const open = isSeries ? (prices as ArrayLike<number>) : p.open;
  const high = isSeries ? (prices as ArrayLike<number>) : p.high;
  const low = isSeries ? (prices as ArrayLike<number>) : p.low;
  const close = isSeries ? (prices as ArrayLike<number>) : p.close;
  const volume = isSeries ? undefined : p.volume;
  const n = time.length;
  const named: [string, ArrayLike<number> | undefined][] = [["open", open], ["high", high], ["low", low], ["close", close], ["volume", volume]];
  for (const [name, col] of named) {
    if (col === undefined) {
      if (name === "volume") continue;
      throw new InvalidArgumentError("prices", `${where}: prices must be a series or { open, high, low, close, volume? }, ${name} is missing`);
    }
    if (col.length !== n) throw new InvalidArgumentError("prices", `${where}: ${name} has ${col.length} values, expected ${n} (one per time)`);
  }
  const buckets = bucketTimes(time, step, where, barOpts.closed);
  const { bar, bars } = buckets;
  const o = new Float64Array(bars).fill(Number.NaN);
  const h = new Float64Array(bars).fill(Number.NaN);
  const l = new Float64Array(bars).fill(Number.NaN);
  const c = new Float64Array(bars).fill(Number.NaN);
  const v = new Float64Array(bars).fill(Number.NaN);
  const count = new Float64Array(bars);
  const hasData = new Uint8Array(bars);
  for (let i = 0; i < n; i++) {
    const b = bar[i] as number;
    hasData[b] = 1;
    const oi = open[i] as number;
    const hi = high[i] as number;
    const li = low[i] as number;
    const ci = close[i] as number;
    if (!Number.isNaN(oi) && Number.isNaN(o[b] as number)) o[b] = oi;
    if (!Number.isNaN(hi) && !((h[b] as number) >= hi)) h[b] = hi;
    if (!Number.isNaN(li) && !((l[b] as number) <= li)) l[b] = li;
    if (!Number.isNaN(ci)) {
      c[b] = ci;
      count[b] = (count[b] as number) + 1;
    }
    if (volume !== undefined) {
      const vi = volume[i] as number;
      if (!Number.isNaN(vi)) v[b] = Number.isNaN(v[b] as number) ? vi : (v[b] as number) + vi;
    }
  }
  const cols: Record<string, Float64Array> = { open: o, high: h, low: l, close: c };
  if (volume !== undefined) cols["volume"] = v;
  cols["count"] = count;
  return finishBars(buckets, step, hasData, cols, barOpts);
}
