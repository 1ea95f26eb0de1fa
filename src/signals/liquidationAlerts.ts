/** Alert levels of the liquidation-cascade rule, mildest first (index = code). */
export const LIQUIDATION_LEVELS = ["none", "warning", "critical", "extreme"] as const;
export type LiquidationLevel = (typeof LIQUIDATION_LEVELS)[number];

/** Thresholds in percent: a level fires when |1-bar move| >= pct1 or |5-bar move| >= pct5. */
export const CASCADE_THRESHOLDS = Object.freeze({
  warning: { pct1: 1, pct5: 2 },
  critical: { pct1: 2, pct5: 5 },
  extreme: { pct1: 5, pct5: 10 },
});

/**
 * The service's cascade rule over one-minute closes: level code per bar,
 * 0 none, 1 warning (1% in 1 minute or 2% in 5 minutes), 2 critical (2% / 5%),
 * 3 extreme (5% / 10%), from the 1- and 5-minute simple moves ending at the bar.
 * Bars whose moves cannot be computed yet use what is available (bar 0 is 0). Causal.
 * @example liquidationAlerts([100, 98.5])[1] // 1 (a 1.5% drop in one minute)
 */
export function liquidationAlerts(close: ArrayLike<number>): Int8Array {
  const n = close.length;
  const out = new Int8Array(n);
  for (let t = 1; t < n; t++) {
    const p = close[t] as number;
    const m1 = Math.abs(100 * (p / (close[t - 1] as number) - 1));
    const m5 = t >= 5 ? Math.abs(100 * (p / (close[t - 5] as number) - 1)) : 0;
    const a1 = Number.isNaN(m1) ? 0 : m1;
    const a5 = Number.isNaN(m5) ? 0 : m5;
    const { warning, critical, extreme } = CASCADE_THRESHOLDS;
    out[t] = a1 >= extreme.pct1 || a5 >= extreme.pct5 ? 3 : a1 >= critical.pct1 || a5 >= critical.pct5 ? 2 : a1 >= warning.pct1 || a5 >= warning.pct5 ? 1 : 0;
  }
  return out;
}
