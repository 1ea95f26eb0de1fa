import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";

/** Trend labels as the regime endpoint publishes them. */
export const TREND_LABELS = ["Mean-Reverting", "Trending"] as const;
export type TrendLabel = (typeof TREND_LABELS)[number];

/**
 * Kaufman's efficiency ratio over `window` bars: |p_t - p_{t-window}| divided by
 * the path length, the sum of |p_k - p_{k-1}| for k = t-window+1..t; 0 (pure
 * noise) .. 1 (a straight line). NaN during warm-up (t < window), when a price in
 * the window is NaN, or when the path has no movement (a flat window). Causal.
 * Reference: P. Kaufman, "Smarter Trading" (1995), the efficiency ratio of KAMA.
 * @throws InvalidArgumentError when window is not a positive integer
 * @example efficiencyRatio([1, 2, 3, 2], { window: 3 })[3] // |2 - 1| / 3 = 0.333
 */
export function efficiencyRatio(close: ArrayLike<number>, options: { window: number }): Float64Array {
  return efficiencyRatioOf(close, options.window, "efficiencyRatio");
}

function efficiencyRatioOf(close: ArrayLike<number>, window: number, where: string): Float64Array {
  if (!Number.isInteger(window) || window < 1) {
    throw new InvalidArgumentError("window", `${where}: window must be a positive integer, got ${window}`);
  }
  const n = close.length;
  const out = new Float64Array(n).fill(Number.NaN);
  const step = new Float64Array(n).fill(Number.NaN);
  for (let t = 1; t < n; t++) step[t] = Math.abs((close[t] as number) - (close[t - 1] as number));
  // Rolling path length with a count of NaN steps; re-summed every 4096 bars
  // so rounding error cannot build up.
  let path = 0;
  let nan = 0;
  for (let t = 1; t < n; t++) {
    const s = step[t] as number;
    if (s === s) path += s;
    else nan++;
    if (t > window) {
      const q = step[t - window] as number;
      if (q === q) path -= q;
      else nan--;
    }
    if (t % 4096 === 0) {
      path = 0;
      for (let k = Math.max(1, t - window + 1); k <= t; k++) {
        const q = step[k] as number;
        if (q === q) path += q;
      }
    }
    if (t >= window && nan === 0) {
      const net = Math.abs((close[t] as number) - (close[t - window] as number));
      out[t] = path > 1e-12 * Math.abs(close[t] as number) ? Math.min(1, net / path) : Number.NaN;
    }
  }
  return out;
}

/**
 * Trend vs mean-reversion per bar: 1 (`Trending`) where the efficiency ratio over
 * `window` bars (default 240 one-minute bars = 4 h) is at least `threshold`
 * (default 0.3), 0 (`Mean-Reverting`) below it, -1 (unknown) where the ratio
 * is NaN: warm-up, a NaN price in the window, or a flat window. Causal.
 * `TREND_LABELS[code]` gives the endpoint's label for codes 0 and 1.
 * @throws InvalidArgumentError on a bad window or a threshold outside [0, 1]
 * @example trendLabels([1, 2, 3, 2, 3], { window: 2, threshold: 0.5 }) // Int8Array [-1, -1, 1, 0, 0]
 */
export function trendLabels(close: ArrayLike<number>, options: { window?: number; threshold?: number } = {}): Int8Array {
  const window = options.window ?? 240;
  const threshold = options.threshold ?? 0.3;
  if (!(threshold >= 0 && threshold <= 1)) {
    throw new InvalidArgumentError("threshold", `trendLabels: threshold must be in [0, 1], got ${threshold}`);
  }
  const er = efficiencyRatioOf(close, window, "trendLabels");
  const out = new Int8Array(er.length);
  for (let i = 0; i < er.length; i++) {
    const e = er[i] as number;
    out[i] = Number.isNaN(e) ? -1 : e >= threshold ? 1 : 0;
  }
  return out;
}
