import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import type { Weights } from "../signals/weights.js";

/** Largest grid simplexGrid builds; beyond it, sample with randomSimplex. */
const MAX_GRID = 10_000_000;

/**
 * Every weight vector on the simplex at a given step: all non-negative weights
 * over `components` that are multiples of `step` and sum to 1. With m = 1/step
 * there are C(m + k - 1, k - 1) of them for k components (1,001 for five
 * components at 0.1, 10,626 at 0.05).
 *
 * Exact: each vector is an integer composition (c_1, ..., c_k) of m, and each
 * weight is the single division c_j / m (the double nearest the true weight),
 * so no rounding accumulates along the grid; the weights sum to 1 within 1e-15.
 * Order: compositions in decreasing lexicographic order, so the first vector puts
 * all the weight on the first component and the last on the last.
 * Reference: "stars and bars" (Feller, An Introduction to Probability Theory, vol. 1, II.5).
 * @param components component names, e.g. COMPONENT_NAMES; each weight object has them in this order
 * @param step grid spacing, 1/m for an integer m >= 1 (0.5, 0.25, 0.1, 0.05, ...)
 * @throws InvalidArgumentError when components is empty or has duplicates, when 1/step is not
 *   an integer, or when the grid would exceed 10 million vectors (sample with randomSimplex instead)
 * @example simplexGrid(["a", "b"], 0.5) // [{ a: 1, b: 0 }, { a: 0.5, b: 0.5 }, { a: 0, b: 1 }]
 */
export function simplexGrid(components: readonly string[], step: number): Weights[] {
  const where = "simplexGrid";
  checkComponents(components, where);
  const m = Math.round(1 / step);
  if (typeof step !== "number" || !(step > 0) || step > 1 || Math.abs(m * step - 1) > 1e-9) {
    throw new InvalidArgumentError("step", `${where}: step must be 1/m for a whole number m >= 1 (e.g. 0.1 or 0.05), got ${String(step)}`);
  }
  const k = components.length;
  const count = gridSize(k, m);
  if (count > MAX_GRID) {
    throw new InvalidArgumentError(
      "step",
      `${where}: ${k} components at step ${step} make ${count} vectors, over ${MAX_GRID}; use a larger step, or sample with randomSimplex`,
    );
  }
  const out: Weights[] = [];
  const parts = new Int32Array(k);
  // Walk the compositions of m in decreasing lexicographic order.
  parts[0] = m;
  for (;;) {
    const w: Record<string, number> = {};
    for (let j = 0; j < k; j++) w[components[j] as string] = (parts[j] as number) / m;
    out.push(w);
    // Next: the rightmost position j < k - 1 holding something gives one unit to j + 1,
    // which also gathers what the last position held (everything between is 0).
    let j = k - 2;
    while (j >= 0 && parts[j] === 0) j--;
    if (j < 0) break;
    const rest = (parts[k - 1] as number) + 1;
    parts[j] = (parts[j] as number) - 1;
    parts[k - 1] = 0;
    parts[j + 1] = rest;
  }
  return out;
}

/** C(m + k - 1, k - 1): compositions of m into k parts (as a double; exact up to 2^53). */
function gridSize(k: number, m: number): number {
  let c = 1;
  for (let i = 1; i < k; i++) c = (c * (m + i)) / i;
  return Math.round(c);
}

/** Component names: at least one, strings, no duplicates. @internal */
export function checkComponents(components: readonly string[], where: string): void {
  if (!Array.isArray(components) || components.length === 0) {
    throw new InvalidArgumentError("components", `${where}: components must be a non-empty array of names (e.g. COMPONENT_NAMES), got ${String(components)}`);
  }
  const seen = new Set<string>();
  for (const c of components) {
    if (typeof c !== "string" || c === "") {
      throw new InvalidArgumentError("components", `${where}: each component must be a non-empty name, got ${JSON.stringify(c)}`);
    }
    if (seen.has(c)) throw new InvalidArgumentError("components", `${where}: component ${c} is listed twice; list each once`);
    seen.add(c);
  }
}
