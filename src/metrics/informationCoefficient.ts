import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { normalQuantile } from "./normalQuantile.js";
import { averageRanks, checkPair, completePairs, pearson } from "./spearmanCorrelation.js";

/** Options of `informationCoefficient`. */
export interface InformationCoefficientOptions {
  /**
   * Bars spanned by each forward return (default 1). Forward returns over h
   * bars overlap: consecutive samples share h - 1 bars, so the n pairs carry
   * about n / h independent observations. The confidence interval uses that
   * effective n (see `sample`).
   */
  readonly horizon?: number;
  /**
   * `"all"` (default): the IC over every bar, with the effective sample size
   * n / horizon in the confidence interval (the Hansen-Hodrick style
   * correction for overlapping returns). `"nonOverlapping"`: the IC over every
   * horizon-th bar only (independent forward windows), n as is.
   */
  readonly sample?: "all" | "nonOverlapping";
  /** Two-sided confidence level of the interval, default 0.95. */
  readonly confidence?: number;
}

/** A rank information coefficient with its confidence interval. */
export interface InformationCoefficient {
  /** Spearman correlation of signal and forward return. */
  readonly ic: number;
  /** Complete (signal, forward) pairs used. */
  readonly n: number;
  /** Sample size behind the interval: n / horizon for `sample: "all"`, n for `"nonOverlapping"`. */
  readonly effectiveN: number;
  /** Fisher-z confidence interval: tanh(atanh(ic) ± z / sqrt(effectiveN - 3)). NaN when effectiveN <= 3. */
  readonly ciLow: number;
  readonly ciHigh: number;
  /** Fisher z statistic atanh(ic) * sqrt(effectiveN - 3): |z| > 1.96 is "significant at 5 %". */
  readonly zScore: number;
}

/**
 * Time-series rank information coefficient (IC) of a signal against forward
 * returns: the Spearman correlation over the bars where both are known, with a
 * Fisher-z confidence interval, standard error 1 / sqrt(n_eff - 3) (the
 * Pearson value; Fieller, Hartley & Pearson 1957 give a variance of about
 * 1.06 / (n - 3) for Spearman, i.e. intervals ~3 % wider). For a small universe (four coins)
 * cross-sectional IC means little; this is the per-coin, per-horizon view.
 *
 * Overlap: with h-bar forward returns sampled every bar, n overstates the
 * information by about h; the interval uses n_eff = n / h (or, with
 * `sample: "nonOverlapping"`, the IC is computed on every h-th bar).
 * @param signal signal per bar (known at the close of bar t)
 * @param forward forward return per bar (e.g. `forwardReturns(close, { horizons: [h] })`)
 * @throws InvalidArgumentError on different lengths, a bad horizon, sample or confidence
 * @example informationCoefficient(replay.composite, fwd["1h"], { horizon: 60 }).ic
 */
export function informationCoefficient(
  signal: ArrayLike<number>,
  forward: ArrayLike<number>,
  options: InformationCoefficientOptions = {},
): InformationCoefficient {
  checkPair(signal, forward, "informationCoefficient", ["signal", "forward"]);
  const { horizon = 1, sample = "all", confidence = 0.95 } = options;
  if (!Number.isInteger(horizon) || horizon < 1) {
    throw new InvalidArgumentError("horizon", `informationCoefficient: horizon must be a positive integer (bars per forward return), got ${String(horizon)}`);
  }
  if (sample !== "all" && sample !== "nonOverlapping") {
    throw new InvalidArgumentError("sample", `informationCoefficient: sample must be "all" or "nonOverlapping", got ${String(sample)}`);
  }
  if (typeof confidence !== "number" || !(confidence > 0 && confidence < 1)) {
    throw new InvalidArgumentError("confidence", `informationCoefficient: confidence must be in (0, 1), e.g. 0.95, got ${String(confidence)}`);
  }
  let indices: Uint32Array | undefined;
  if (sample === "nonOverlapping" && horizon > 1) {
    indices = new Uint32Array(Math.ceil(signal.length / horizon));
    for (let k = 0; k < indices.length; k++) indices[k] = k * horizon;
  }
  const [x, y] = completePairs(signal, forward, indices);
  const n = x.length;
  const ic = n >= 2 ? pearson(averageRanks(x), averageRanks(y)) : Number.NaN;
  const effectiveN = sample === "all" ? n / horizon : n;
  let ciLow = Number.NaN;
  let ciHigh = Number.NaN;
  let zScore = Number.NaN;
  if (effectiveN > 3 && !Number.isNaN(ic)) {
    const z = Math.atanh(ic);
    const se = 1 / Math.sqrt(effectiveN - 3);
    const q = normalQuantile(0.5 + confidence / 2);
    ciLow = Math.tanh(z - q * se);
    ciHigh = Math.tanh(z + q * se);
    zScore = z / se;
  }
  return { ic, n, effectiveN, ciLow, ciHigh, zScore };
}
