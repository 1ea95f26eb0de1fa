/**
 * The guide's SMA cross written the documented way for `sweepStrategy`: the
 * targets go into the column the sweep passes (`out`), which is returned, so a
 * variant allocates nothing. Long when the fast mean is above the slow one,
 * short below, flat until the slow window is full. Self-contained (no outer
 * names), so its text also runs in the sweep's workers. The benches and
 * profiles share it so they time the same function.
 */
export const smaCross = (c: Readonly<Record<string, Float64Array>>, p: Readonly<Record<string, unknown>>, out: Float64Array): Float64Array => {
  const close = c["close"] as Float64Array;
  const fast = p["fast"] as number;
  const slow = p["slow"] as number;
  let f = 0;
  let s = 0;
  for (let i = 0; i < close.length; i++) {
    const x = close[i] as number;
    f += x;
    s += x;
    if (i >= fast) f -= close[i - fast] as number;
    if (i >= slow) s -= close[i - slow] as number;
    out[i] = i + 1 < slow ? 0 : f / fast > s / slow ? 1 : -1;
  }
  return out;
};
