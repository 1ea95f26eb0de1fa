import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { COMPONENT_NAMES, type Weights } from "../signals/weights.js";
import { createRng } from "../random/prng.js";
import { checkComponents } from "./simplexGrid.js";

/** Options of {@link randomSimplex}. */
export interface RandomSimplexOptions {
  /** 32-bit integer seed of the generator (mulberry32); the same seed gives the same vectors. Default 0. */
  readonly seed?: number;
  /** Component names, in the order of each weight object. Default COMPONENT_NAMES. */
  readonly components?: readonly string[];
}

/**
 * n weight vectors drawn uniformly from the simplex (the flat Dirichlet(1, ..., 1)
 * distribution): non-negative weights summing to 1, every point equally likely.
 * Method: normalised exponential spacings, w_j = E_j / (E_1 + ... + E_k) with
 * E_j = -ln(1 - U_j) independent standard exponentials (Devroye, Non-Uniform Random
 * Variate Generation, 1986, V.2). Each marginal w_j is Beta(1, k - 1), with mean 1/k.
 * A seeded sample for sweeps where the full grid (simplexGrid) is too large.
 * @param n number of vectors, a whole number >= 0
 * @throws InvalidArgumentError on a bad n, seed or component list
 * @example randomSimplex(2, { seed: 7, components: ["a", "b"] }) // two { a, b } with a + b = 1, the same on every run
 */
export function randomSimplex(n: number, options: RandomSimplexOptions = {}): Weights[] {
  const where = "randomSimplex";
  if (!Number.isInteger(n) || n < 0) {
    throw new InvalidArgumentError("n", `${where}: n must be a whole number of vectors >= 0, got ${String(n)}`);
  }
  const seed = options.seed ?? 0;
  if (!Number.isInteger(seed)) {
    throw new InvalidArgumentError("seed", `${where}: seed must be an integer, got ${String(seed)}`);
  }
  const components = options.components ?? COMPONENT_NAMES;
  checkComponents(components, where);
  const k = components.length;
  const rng = createRng(seed);
  const e = new Float64Array(k);
  const out: Weights[] = [];
  for (let v = 0; v < n; v++) {
    let sum = 0;
    for (let j = 0; j < k; j++) {
      const x = -Math.log(1 - rng.uniform()); // uniform() < 1, so 1 - U > 0 and x is finite
      e[j] = x;
      sum += x;
    }
    const w: Record<string, number> = {};
    // sum is 0 only if every draw was exactly 0 (probability 2^-32k): then the centre.
    for (let j = 0; j < k; j++) w[components[j] as string] = sum > 0 ? (e[j] as number) / sum : 1 / k;
    out.push(w);
  }
  return out;
}
