/**
 * The seeded PRNG moved to src/random/prng.ts (below both research and sim).
 * This re-export keeps imports from branches written before the move compiling;
 * new code imports src/random/prng.ts. Remove once no file imports this path.
 * @deprecated import from "../random/prng.js"
 * @internal
 */
export { createRng, mixSeed, type Rng } from "../random/prng.js";
