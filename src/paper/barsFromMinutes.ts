/** One minute-resolution series of the feed: epoch ms (ascending) and values (a missing minute is absent). */
export interface MinuteSeries {
  readonly time: ArrayLike<number>;
  readonly value: ArrayLike<number>;
}

/** Closed bars built from minute series: columns `time` (bar open, epoch ms), `open`, `high`, `low`, `close` and one per other metric. */
export interface ClosedBars {
  readonly columns: Record<string, Float64Array>;
  /** Bars in the columns. */
  readonly length: number;
  /** Latest minute every series has reached (epoch ms): the feed's "now". */
  readonly now: number;
}

const MINUTE_MS = 60_000;

/**
 * Bars of `intervalMs` (a whole number of minutes) from minute points, from the bar that opens
 * at `fromMs` up to the last bar whose last minute every series has reached (the bar is then
 * closed: its close is published). Bar k opens at `fromMs + k intervalMs`; from the price series:
 * `open` = its first minute's value, `high` / `low` = the largest / smallest value of its minutes,
 * `close` = its last minute's value; each other series gives the value at the bar's last minute.
 * A minute missing from a series is NaN there, never the previous value: a bar without its last
 * price has close NaN (the engine does not fill on it, and the paper trader reports a gap), so
 * no fill ever uses a stale price.
 * Cost: O(points).
 * @example
 * barsFromMinutes({ price: { time: [0, 60000, 120000], value: [10, 12, 11] } }, "price", 120000, 0)
 * // one bar: { time: [0], open: [10], high: [12], low: [10], close: [12] } (the bar of 0..119999 ms; the minute at 120000 opens the next)
 * @internal
 */
export function barsFromMinutes(series: Readonly<Record<string, MinuteSeries>>, priceMetric: string, intervalMs: number, fromMs: number): ClosedBars {
  let now = Number.POSITIVE_INFINITY;
  for (const s of Object.values(series)) now = Math.min(now, s.time.length > 0 ? (s.time[s.time.length - 1] as number) : Number.NEGATIVE_INFINITY);
  const per = intervalMs / MINUTE_MS;
  // bar k is closed when its last minute (fromMs + (k + 1) intervalMs - 1 minute) <= now
  const length = Number.isFinite(now) && now >= fromMs ? Math.max(0, Math.floor((now - fromMs + MINUTE_MS) / intervalMs)) : 0;
  const columns: Record<string, Float64Array> = {};
  const time = new Float64Array(length);
  for (let k = 0; k < length; k++) time[k] = fromMs + k * intervalMs;
  columns["time"] = time;
  const minute = (s: MinuteSeries, k: number, m: number, cursor: { j: number }): number => {
    const t = fromMs + k * intervalMs + m * MINUTE_MS;
    while (cursor.j < s.time.length && (s.time[cursor.j] as number) < t) cursor.j++;
    return cursor.j < s.time.length && s.time[cursor.j] === t ? (s.value[cursor.j] as number) : Number.NaN;
  };
  const price = series[priceMetric];
  if (price !== undefined) {
    const open = new Float64Array(length), high = new Float64Array(length), low = new Float64Array(length), close = new Float64Array(length);
    const cursor = { j: 0 };
    for (let k = 0; k < length; k++) {
      let hi = Number.NaN, lo = Number.NaN, first = Number.NaN, last = Number.NaN;
      for (let m = 0; m < per; m++) {
        const v = minute(price, k, m, cursor);
        if (m === 0) first = v;
        if (m === per - 1) last = v;
        if (v === v) {
          if (!(v <= hi)) hi = v;
          if (!(v >= lo)) lo = v;
        }
      }
      // a bar without its close has no price at all (open, high, low NaN too): nothing is filled or checked on it
      const ok = last === last;
      open[k] = ok ? (first === first ? first : last) : Number.NaN;
      high[k] = ok ? hi : Number.NaN;
      low[k] = ok ? lo : Number.NaN;
      close[k] = last;
    }
    Object.assign(columns, { open, high, low, close });
  }
  for (const [name, s] of Object.entries(series)) {
    if (name === priceMetric) continue;
    const col = new Float64Array(length);
    const cursor = { j: 0 };
    for (let k = 0; k < length; k++) col[k] = minute(s, k, per - 1, cursor);
    columns[name] = col;
  }
  return { columns, length, now };
}
