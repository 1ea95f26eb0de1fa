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

/**
 * The same rule written the documented way for a grid (docs/guide.md, "Sweep any strategy"): each
 * rolling mean computed once per sweep for every variant that uses its length (`shared`, keyed by
 * the length), then a compare into `out`. The rolling sum is smaCross's, in the same order, so the
 * targets are the same bit for bit. Self-contained, so its text also runs in the sweep's workers.
 */
export const smaCrossShared = (
  c: Readonly<Record<string, Float64Array>>,
  p: Readonly<Record<string, unknown>>,
  out: Float64Array,
  shared: <T>(key: string, compute: () => T) => T,
): Float64Array => {
  const close = c["close"] as Float64Array;
  const slow = p["slow"] as number;
  // (the computations passed inline, unnamed: a named inner function is wrapped by tsx's keepNames, and its text then reads a helper from outside)
  const [f, s] = [p["fast"] as number, slow].map((m) =>
    shared(`mean${m}`, () => {
      const r = new Float64Array(close.length);
      let sum = 0;
      for (let i = 0; i < close.length; i++) {
        sum += close[i] as number;
        if (i >= m) sum -= close[i - m] as number;
        r[i] = sum / m;
      }
      return r;
    }),
  ) as [Float64Array, Float64Array];
  for (let i = slow - 1; i < close.length; i++) out[i] = (f[i] as number) > (s[i] as number) ? 1 : -1;
  return out;
};
