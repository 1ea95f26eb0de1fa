import { normalQuantile } from "../metrics/normalQuantile.js";
import { checkNumberOption } from "./checkNumberOption.js";

/** The Euler–Mascheroni constant γ. */
const EULER_MASCHERONI = 0.5772156649015329;

/**
 * Expected maximum of `trials` independent Sharpe-ratio estimates whose true
 * Sharpe is 0 and whose variance across trials is `trialSharpeVariance`
 * (Bailey & López de Prado 2014, "The deflated Sharpe ratio", from the
 * False Strategy theorem of Bailey, Borwein, López de Prado & Zhu 2014):
 *
 * `E[max SR] ≈ sqrt(V) · ((1 − γ)·Z⁻¹(1 − 1/N) + γ·Z⁻¹(1 − 1/(N·e)))`
 *
 * γ the Euler–Mascheroni constant, Z⁻¹ the standard normal quantile. In the
 * units of the Sharpe ratios whose variance is given (annualised in
 * deflatedSharpeRatio, per period if the variance is of per-period ratios). One trial gives exactly 0 (the maximum of one draw is the draw; the
 * formula itself is −∞ there).
 * @throws InvalidArgumentError when trials is not an integer ≥ 1 or the variance is negative or not finite
 * @example expectedMaxSharpe(100, 1 / 500) // ≈ 0.1132 (the DSR paper's example, per day)
 */
export function expectedMaxSharpe(trials: number, trialSharpeVariance: number): number {
  return expectedMaxSharpeIn(trials, trialSharpeVariance, "expectedMaxSharpe");
}

/** {@link expectedMaxSharpe}, errors naming the calling function. @internal */
export function expectedMaxSharpeIn(trials: number, trialSharpeVariance: number, where: string): number {
  const n = checkNumberOption(trials, "trials", where, { min: 1, integer: true, hint: "the number of variants tried" });
  const v = checkNumberOption(trialSharpeVariance, "trialSharpeVariance", where, {
    min: 0,
    hint: "the variance of the trials' Sharpe ratios",
  });
  if (n === 1) return 0;
  const z = (1 - EULER_MASCHERONI) * normalQuantile(1 - 1 / n) + EULER_MASCHERONI * normalQuantile(1 - 1 / (n * Math.E));
  return Math.sqrt(v) * z;
}
