import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";

/**
 * Average true range, Wilder's smoothing, in price units.
 *
 * True range TR_t = max(high_t - low_t, |high_t - close_{t-1}|, |low_t - close_{t-1}|);
 * the first bar's TR is high_0 - low_0. ATR is NaN for t < period - 1, equals the
 * mean of TR_0..TR_{period-1} at t = period - 1, then
 * ATR_t = (ATR_{t-1} * (period - 1) + TR_t) / period (Wilder 1978, "New Concepts in
 * Technical Trading Systems"; TA-Lib's ATR differs only in dropping the first TR).
 * Missing data: a bar whose high or low is NaN has no true range: it is NaN and
 * the average restarts (a new seed of `period` true ranges) after it; a bar whose
 * previous close is NaN uses high - low, like bar 0.
 * @throws InvalidArgumentError on unequal lengths or period < 1
 * @example atr([10, 11], [9, 10], [9.5, 10.5], { period: 2 })[1] // (1 + 1.5) / 2 = 1.25
 */
export function atr(
  high: ArrayLike<number>,
  low: ArrayLike<number>,
  close: ArrayLike<number>,
  options: { period?: number } = {},
): Float64Array {
  const period = options.period ?? 14;
  if (!Number.isInteger(period) || period < 1) {
    throw new InvalidArgumentError("period", `atr: period must be a positive integer, got ${period}`);
  }
  const n = close.length;
  if (high.length !== n || low.length !== n) {
    throw new InvalidArgumentError(
      "high",
      `atr: high, low and close must have the same length, got ${high.length}, ${low.length}, ${n}`,
    );
  }
  const out = new Float64Array(n).fill(Number.NaN);
  let acc = 0;
  let run = 0; // consecutive bars with a true range
  let prev = Number.NaN;
  for (let t = 0; t < n; t++) {
    const h = high[t] as number;
    const l = low[t] as number;
    const pc = t > 0 ? (close[t - 1] as number) : Number.NaN;
    let tr = h - l;
    if (pc === pc) tr = Math.max(tr, Math.abs(h - pc), Math.abs(l - pc));
    if (tr !== tr) {
      run = 0;
      acc = 0;
      continue;
    }
    run++;
    if (run < period) acc += tr;
    else if (run === period) prev = (acc + tr) / period;
    else prev = (prev * (period - 1) + tr) / period;
    if (run >= period) out[t] = prev;
  }
  return out;
}

/**
 * ATR as a percent of the close: 100 * ATR_t / close_t.
 * @example atrPercent([10, 11], [9, 10], [9.5, 10.5], { period: 2 })[1] // 100 * 1.25 / 10.5
 */
export function atrPercent(
  high: ArrayLike<number>,
  low: ArrayLike<number>,
  close: ArrayLike<number>,
  options: { period?: number } = {},
): Float64Array {
  const a = atr(high, low, close, options);
  for (let t = 0; t < a.length; t++) a[t] = (100 * (a[t] as number)) / (close[t] as number);
  return a;
}
