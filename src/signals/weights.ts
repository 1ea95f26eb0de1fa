import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";

/** The five components the live service publishes in `signals[].components`. */
export const COMPONENT_NAMES = ["imbalance", "funding", "basis_spread", "momentum_5m", "gas"] as const;

/** Name of one of the service's composite components. */
export type ComponentName = (typeof COMPONENT_NAMES)[number];

/** Weights by component name. Extra (user-defined) components may be added. */
export type Weights = Readonly<Record<string, number>>;

/**
 * The service's published weighting (methodology text: imbalance 30%,
 * funding 25%, basis 20%, momentum 15%, gas 10%). Sums to 1.
 */
export const DEFAULT_WEIGHTS: Readonly<Record<ComponentName, number>> = Object.freeze({
  imbalance: 0.3,
  funding: 0.25,
  basis_spread: 0.2,
  momentum_5m: 0.15,
  gas: 0.1,
});

/**
 * Check a weight set: every weight finite and non-negative, at least one
 * component, and (unless `allowAnySum`) a sum of 1 within 1e-9.
 * @throws InvalidArgumentError naming the bad weight.
 * @example validateWeights({ imbalance: 0.5, funding: 0.5 }) // returns the same object
 */
export function validateWeights(weights: Weights, where = "weights", allowAnySum = false): Weights {
  const names = Object.keys(weights);
  if (names.length === 0) {
    throw new InvalidArgumentError("weights", `${where}: weights must name at least one component`);
  }
  let sum = 0;
  for (const name of names) {
    const w = weights[name];
    if (typeof w !== "number" || !Number.isFinite(w) || w < 0) {
      throw new InvalidArgumentError(
        "weights",
        `${where}: weight of ${name} must be a finite non-negative number, got ${String(w)}`,
      );
    }
    sum += w;
  }
  if (!allowAnySum && Math.abs(sum - 1) > 1e-9) {
    throw new InvalidArgumentError(
      "weights",
      `${where}: weights must sum to 1, got ${sum} (pass allowAnySum: true to opt out)`,
    );
  }
  return weights;
}
