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
 * The label rule, the one definition every labelling path uses (classifySignal,
 * replayComposite's columns, the backtest's composite signal, the replay server):
 * +1 (buy) when score >= threshold, -1 (sell) when score <= -threshold, else 0
 * (neutral). A zero score is neutral even at threshold 0, and NaN is neutral (no signal).
 * No validation: for inner loops (validate the threshold once with validateThresholds).
 * @example labelCode(0.12, 0.1) // 1
 * @example labelCode(-0.0771, 0.1) // 0
 * @internal
 */
export function labelCode(score: number, threshold: number): -1 | 0 | 1 {
  return score >= threshold && score > 0 ? 1 : score <= -threshold && score < 0 ? -1 : 0;
}

/**
 * Signed strength: the label (see {@link labelCode}), doubled where |score| >= strong.
 * No validation, for inner loops.
 * @example strengthCode(0.35, 0.1, 0.3) // 2
 * @internal
 */
export function strengthCode(score: number, threshold: number, strong: number): -2 | -1 | 0 | 1 | 2 {
  const l = labelCode(score, threshold);
  return l !== 0 && Math.abs(score) >= strong ? ((2 * l) as -2 | 2) : l;
}

const NAMES = ["sell", "neutral", "buy"] as const;

/** The label's name: -1 "sell", 0 "neutral", 1 "buy". @internal */
export function labelName(code: number): SignalLabel {
  return NAMES[code + 1] as SignalLabel;
}

/**
 * Label a composite score: `buy` when score >= threshold, `sell` when
 * score <= -threshold, else `neutral` (NaN is neutral: no signal); see {@link labelCode}.
 * @example classifySignal(-0.0771) // "neutral"
 * @example classifySignal(0.12) // "buy"
 */
export function classifySignal(score: number, options: SignalThresholds = {}): SignalLabel {
  const { threshold } = validateThresholds(options);
  return labelName(labelCode(score, threshold));
}

/**
 * Signed strength: +2 strong buy, +1 buy, 0 neutral, -1 sell, -2 strong sell
 * (see {@link strengthCode}).
 * @example classifySignalStrength(0.35, { strong: 0.3 }) // 2
 */
export function classifySignalStrength(score: number, options: SignalThresholds = {}): -2 | -1 | 0 | 1 | 2 {
  const { threshold, strong } = validateThresholds(options, "classifySignalStrength");
  return strengthCode(score, threshold, strong);
}
