import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";

/** Trend labels as the regime endpoint publishes them. */
export const TREND_LABELS = ["Mean-Reverting", "Trending"] as const;
export type TrendLabel = (typeof TREND_LABELS)[number];

/**
 * Kaufman's efficiency ratio over `window` bars: |p_t - p_{t-window}| divided by
 * the sum of |p_k - p_{k-1}| over the window; 0 (pure noise) .. 1 (straight line).
 * NaN during warm-up or when the path has no movement. Causal.
 * @example efficiencyRatio([1, 2, 3, 2], { window: 3 })[3] // |2 - 1| / 3 = 0.333
 */
export function efficiencyRatio(close: ArrayLike<number>, options: { window: number }): Float64Array {
  const { window } = options;
  if (!Number.isInteger(window) || window < 1) {
    throw new InvalidArgumentError("window", `efficiencyRatio: window must be a positive integer, got ${window}`);
  }
  const n = close.length;
  const out = new Float64Array(n).fill(Number.NaN);
  let path = 0;
  for (let t = 1; t < n; t++) {
    path += Math.abs((close[t] as number) - (close[t - 1] as number));
    if (t > window) path -= Math.abs((close[t - window] as number) - (close[t - window - 1] as number));
    if (t >= window) {
      const net = Math.abs((close[t] as number) - (close[t - window] as number));
      out[t] = path > 1e-12 * Math.abs(close[t] as number) ? Math.min(1, net / path) : Number.NaN;
    }
  }
  return out;
}

/**
 * Trend vs mean-reversion per bar: 1 (`Trending`) where the efficiency ratio over
 * `window` bars (default 240 one-minute bars = 4 h) is at least `threshold`
 * (default 0.3), 0 (`Mean-Reverting`) below it, -1 during warm-up. Causal.
 * @example trendLabels(close, { window: 240 })
 */
export function trendLabels(close: ArrayLike<number>, options: { window?: number; threshold?: number } = {}): Int8Array {
  const window = options.window ?? 240;
  const threshold = options.threshold ?? 0.3;
  if (!(threshold >= 0 && threshold <= 1)) {
    throw new InvalidArgumentError("threshold", `trendLabels: threshold must be in [0, 1], got ${threshold}`);
  }
  const er = efficiencyRatio(close, { window });
  const out = new Int8Array(er.length);
  for (let i = 0; i < er.length; i++) {
    const e = er[i] as number;
    out[i] = Number.isNaN(e) ? -1 : e >= threshold ? 1 : 0;
  }
  return out;
}
