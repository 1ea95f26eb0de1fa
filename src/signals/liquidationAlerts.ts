import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";

/** Alert levels of the liquidation-cascade rule, mildest first (index = code). */
export const LIQUIDATION_LEVELS = ["none", "warning", "critical", "extreme"] as const;
export type LiquidationLevel = (typeof LIQUIDATION_LEVELS)[number];

/** Thresholds of one level, in percent: it fires when |1-bar move| >= pct1 or |5-bar move| >= pct5. */
export interface CascadeThreshold {
  readonly pct1: number;
  readonly pct5: number;
}

/** The live service's thresholds (percent moves over 1 and 5 one-minute bars). */
export const CASCADE_THRESHOLDS: Readonly<Record<"warning" | "critical" | "extreme", CascadeThreshold>> = Object.freeze({
  warning: Object.freeze({ pct1: 1, pct5: 2 }),
  critical: Object.freeze({ pct1: 2, pct5: 5 }),
  extreme: Object.freeze({ pct1: 5, pct5: 10 }),
});

/**
 * The service's liquidation-cascade rule over one-minute closes: a level code
 * per bar, 0 none, 1 warning (a move of at least 1% in 1 minute or 2% in 5
 * minutes), 2 critical (2% / 5%), 3 extreme (5% / 10%), up or down. The moves
 * are simple returns in percent ending at the bar: 100 * |p_t - p_{t-1}| / p_{t-1} and
 * 100 * |p_t - p_{t-5}| / p_{t-5}; in the first five bars the longer move spans the
 * bars available (from bar 0). A move with a NaN price does not count (bar 0 and
 * a NaN bar are 0 unless the other move fires). Causal: bar t uses closes up to t.
 * @param close one-minute closes (for other bars, the "1" and "5" are bars, not minutes)
 * @param options.thresholds level thresholds; default CASCADE_THRESHOLDS; each
 *   level's pct1 and pct5 must be positive and not below the milder level's
 * @throws InvalidArgumentError on bad thresholds
 * @example liquidationAlerts([100, 98.5]) // Int8Array [0, 1] (a 1.5% drop in one minute)
 */
export function liquidationAlerts(
  close: ArrayLike<number>,
  options: { thresholds?: Readonly<Record<"warning" | "critical" | "extreme", CascadeThreshold>> } = {},
): Int8Array {
  const th = options.thresholds ?? CASCADE_THRESHOLDS;
  const levels = [th.warning, th.critical, th.extreme];
  let prev1 = 0;
  let prev5 = 0;
  for (const [k, l] of levels.entries()) {
    if (l === undefined || !(l.pct1 > 0 && l.pct5 > 0 && Number.isFinite(l.pct1) && Number.isFinite(l.pct5)) || l.pct1 < prev1 || l.pct5 < prev5) {
      throw new InvalidArgumentError(
        "thresholds",
        `liquidationAlerts: thresholds.${LIQUIDATION_LEVELS[k + 1]} must have finite positive pct1 and pct5, not below the milder level's, got ${JSON.stringify(l)}`,
      );
    }
    prev1 = l.pct1;
    prev5 = l.pct5;
  }
  const { warning, critical, extreme } = th;
  const n = close.length;
  const out = new Int8Array(n);
  for (let t = 1; t < n; t++) {
    const p = close[t] as number;
    const q1 = close[t - 1] as number;
    const q5 = close[t >= 5 ? t - 5 : 0] as number;
    // 100 * |p - q| / q rather than 100 * |p / q - 1|: exact at round thresholds (90 vs 100 is 10 %)
    const m1 = (100 * Math.abs(p - q1)) / q1;
    const m5 = (100 * Math.abs(p - q5)) / q5;
    const a1 = m1 === m1 ? m1 : 0;
    const a5 = m5 === m5 ? m5 : 0;
    out[t] =
      a1 >= extreme.pct1 || a5 >= extreme.pct5
        ? 3
        : a1 >= critical.pct1 || a5 >= critical.pct5
          ? 2
          : a1 >= warning.pct1 || a5 >= warning.pct5
            ? 1
            : 0;
  }
  return out;
}
