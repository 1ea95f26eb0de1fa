import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";

/** The composite's label, as the service publishes it in `signals[].regime`. */
export type SignalLabel = "buy" | "sell" | "neutral";

/** Options of {@link classifySignal}. */
export interface SignalThresholds {
  /** |score| below this is neutral; default 0.1 (the live service's band). */
  readonly threshold?: number;
  /** Optional stronger band (0.3 was seen on dashboards): {@link classifySignalStrength} reports it. */
  readonly strong?: number;
}

/**
 * Validate label thresholds, 0 <= threshold <= strong <= 1, and fill the
 * defaults (threshold 0.1, no strong band = Infinity).
 * @throws InvalidArgumentError naming the bad threshold and the function `where`
 * @example validateThresholds({ strong: 0.3 }) // { threshold: 0.1, strong: 0.3 }
 */
export function validateThresholds(t: SignalThresholds, where = "classifySignal"): { threshold: number; strong: number } {
  const threshold = t.threshold ?? 0.1;
  const strong = t.strong ?? Number.POSITIVE_INFINITY;
  if (!Number.isFinite(threshold) || threshold < 0 || threshold > 1) {
    throw new InvalidArgumentError("threshold", `${where}: threshold must be a number in [0, 1], got ${threshold}`);
  }
  if (t.strong !== undefined && (!Number.isFinite(strong) || strong < threshold || strong > 1)) {
    throw new InvalidArgumentError("strong", `${where}: strong must be a number in [threshold, 1], got ${strong}`);
  }
  return { threshold, strong };
}

/**
 * Label a composite score: `buy` when score >= threshold, `sell` when
 * score <= -threshold, else `neutral` (NaN is neutral: no signal).
 * @example classifySignal(-0.0771) // "neutral"
 * @example classifySignal(0.12) // "buy"
 */
export function classifySignal(score: number, options: SignalThresholds = {}): SignalLabel {
  const { threshold } = validateThresholds(options);
  return labelOf(score, threshold);
}

/** Label without validation, for inner loops (a zero score is neutral even at threshold 0). @internal */
export function labelOf(score: number, threshold: number): SignalLabel {
  if (score >= threshold && score > 0) return "buy";
  if (score <= -threshold && score < 0) return "sell";
  return "neutral";
}

/**
 * Signed strength: +2 strong buy, +1 buy, 0 neutral, -1 sell, -2 strong sell.
 * @example classifySignalStrength(0.35, { strong: 0.3 }) // 2
 */
export function classifySignalStrength(score: number, options: SignalThresholds = {}): -2 | -1 | 0 | 1 | 2 {
  const { threshold, strong } = validateThresholds(options, "classifySignalStrength");
  if (Number.isNaN(score)) return 0;
  const a = Math.abs(score);
  const sign = score > 0 ? 1 : -1;
  if (a >= strong) return (2 * sign) as 2 | -2;
  if (a >= threshold) return sign as 1 | -1;
  return 0;
}
