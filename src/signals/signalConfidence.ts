import type { Weights } from "./weights.js";

/**
 * Confidence of a composite, 0..1: the mean of (a) its strength,
 * min(1, |composite| / 0.3), and (b) the agreement of its components, the share
 * of weight whose score has the composite's sign. A neutral-sized score with
 * split components is near 0; a strong score all components agree on is 1.
 * This is this library's (and its replay server's) definition: the live
 * service's formula is not published. NaN when the composite is NaN.
 * @example signalConfidence({ imbalance: 1, funding: 1 }, { imbalance: 0.5, funding: 0.5 }, 1) // 1
 */
export function signalConfidence(scores: Readonly<Record<string, number>>, weights: Weights, composite: number): number {
  const names = Object.keys(weights);
  return confidenceAt(
    names.map((name) => [scores[name] ?? Number.NaN]),
    names.map((name) => weights[name] as number),
    composite,
    0,
  );
}

/**
 * The confidence rule, the one definition for a row and for columns: row i of the
 * score columns (one per component, weights in the same order) with that row's composite.
 * Weights are summed in order over the present (non-NaN) scores.
 * @example confidenceAt([[0.9], [-0.1]], [0.3, 0.7], 0.15, 0) // 0.5 x 0.5 + 0.5 x 0.3 = 0.4
 * @internal
 */
export function confidenceAt(scores: readonly ArrayLike<number>[], weights: ArrayLike<number>, composite: number, i: number): number {
  if (composite !== composite) return Number.NaN;
  let agree = 0;
  let present = 0;
  const sign = Math.sign(composite);
  for (let j = 0; j < scores.length; j++) {
    const x = (scores[j] as ArrayLike<number>)[i] as number;
    if (x !== x) continue;
    const w = weights[j] as number;
    present = present + w;
    if (composite !== 0 && Math.sign(x) === sign) agree = agree + w;
  }
  const agreement = present > 0 ? agree / present : 0;
  return 0.5 * Math.min(1, Math.abs(composite) / 0.3) + 0.5 * agreement;
}
