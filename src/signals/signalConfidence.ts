import type { Weights } from "./weights.js";

/**
 * Confidence of a composite, 0..1: the mean of (a) its strength,
 * min(1, |composite| / 0.3), and (b) the agreement of its components, the share
 * of weight whose score has the composite's sign. A neutral-sized score with
 * split components is near 0; a strong score all components agree on is 1.
 * This is this library's (and its replay server's) definition: the live
 * service's formula is not published.
 * @example signalConfidence({ imbalance: 1, funding: 1 }, { imbalance: 0.5, funding: 0.5 }, 1) // 1
 */
export function signalConfidence(scores: Readonly<Record<string, number>>, weights: Weights, composite: number): number {
  if (Number.isNaN(composite)) return Number.NaN;
  let agree = 0;
  let total = 0;
  for (const name of Object.keys(weights)) {
    const w = weights[name] as number;
    const s = scores[name];
    if (s === undefined || Number.isNaN(s)) continue;
    total += w;
    if (composite !== 0 && Math.sign(s) === Math.sign(composite)) agree += w;
  }
  const agreement = total > 0 ? agree / total : 0;
  const strength = Math.min(1, Math.abs(composite) / 0.3);
  return 0.5 * strength + 0.5 * agreement;
}
