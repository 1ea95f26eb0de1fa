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
  let sum = 0;
  let used = 0;
  let total = 0;
  let present = 0;
  for (const name of Object.keys(weights)) {
    const w = weights[name] as number;
    total += w;
    const s = scores[name];
    if (s === undefined || Number.isNaN(s)) {
      if (missing === "nan") return Number.NaN;
      continue;
    }
    sum += w * s;
    used += w;
    present++;
  }
  if (present === 0) return Number.NaN;
  if (missing !== "renormalise" || Math.abs(used - total) < 1e-12) return sum;
  // the same arithmetic as replayComposite, so the two agree bit for bit
  return Math.abs(total - 1) > 1e-12 ? (sum / used) * total : sum / used;
}
