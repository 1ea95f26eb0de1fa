import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { DEFAULT_WEIGHTS, validateWeights, type Weights } from "./weights.js";

/**
 * What to do when a weighted component's score is NaN:
 * - `"renormalise"` (default): drop it and rescale the remaining weights to sum to 1;
 * - `"zero"`: count it as a score of 0;
 * - `"nan"`: the composite is NaN.
 * With every component missing, the composite is NaN under all three.
 */
export type MissingPolicy = "renormalise" | "zero" | "nan";

export const MISSING_POLICIES: readonly MissingPolicy[] = ["renormalise", "zero", "nan"];

/**
 * Weighted composite of component scores: sum over components of weight x score,
 * summed in the order of the weights object (the service's model; docs/DESIGN.md).
 * A weighted component absent from `scores` counts as missing. Row by row, this
 * is what {@link replayComposite} computes over columns.
 * @param scores score per component, each in [-1, 1]
 * @param weights default DEFAULT_WEIGHTS; validated (non-negative, sum 1)
 * @throws InvalidArgumentError on invalid weights or policy
 * @example compositeScore({ imbalance: 0.261, funding: -0.048, basis_spread: -1, momentum_5m: 0.178, gas: 0.3 }) // ≈ -0.0770 (the service printed -0.0771 from its unrounded scores)
 */
export function compositeScore(
  scores: Readonly<Record<string, number>>,
  weights: Weights = DEFAULT_WEIGHTS,
  missing: MissingPolicy = "renormalise",
): number {
  validateWeights(weights, "compositeScore");
  if (!MISSING_POLICIES.includes(missing)) {
    throw new InvalidArgumentError("missing", `compositeScore: missing must be one of ${MISSING_POLICIES.join(", ")}, got ${String(missing)}`);
  }
  const names = Object.keys(weights);
  const ws = names.map((name) => weights[name] as number);
  let total = 0;
  for (const w of ws) total += w;
  return compositeAt(names.map((name) => [scores[name] ?? Number.NaN]), ws, total, policyCode(missing), 0);
}

/** A missing policy as the code the column kernels take: 0 renormalise, 1 zero, 2 nan. @internal */
export function policyCode(missing: MissingPolicy): 0 | 1 | 2 {
  return missing === "renormalise" ? 0 : missing === "zero" ? 1 : 2;
}

/**
 * The composite rule, the one definition for a row and for columns: row i of the
 * score columns (one per component, in weight order), sum of weight x score over the
 * present (non-NaN) scores in that order; with a score missing, policy 0
 * (renormalise) rescales by total / weight present, 1 (zero) keeps the sum,
 * 2 (nan) gives NaN; no score present gives NaN under every policy.
 * @param total the sum of all the weights
 * @example compositeAt([[0.5], [Number.NaN]], [0.5, 0.5], 1, 0, 0) // 0.5 (renormalised over the half present)
 * @internal
 */
export function compositeAt(scores: readonly ArrayLike<number>[], weights: ArrayLike<number>, total: number, policy: number, i: number): number {
  let sum = 0;
  let used = 0;
  let present = 0;
  for (let j = 0; j < scores.length; j++) {
    const x = (scores[j] as ArrayLike<number>)[i] as number;
    if (x !== x) continue;
    const w = weights[j] as number;
    sum = sum + w * x;
    used = used + w;
    present++;
  }
  if (present === 0 || (present < scores.length && policy === 2)) return Number.NaN;
  if (policy !== 0 || Math.abs(used - total) < 1e-12) return sum;
  return Math.abs(total - 1) > 1e-12 ? (sum / used) * total : sum / used;
}
