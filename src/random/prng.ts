/**
 * A small seeded pseudo-random generator (mulberry32) with standard-normal
 * draws by the Box-Muller transform. Deterministic for a given seed; not
 * for cryptography.
 */
export interface Rng {
  /** Uniform in [0, 1). */
  uniform(): number;
  /** Standard normal N(0, 1). */
  normal(): number;
}

/**
 * Create a generator from a 32-bit integer seed.
 * @example createRng(42).uniform() // always the same number for seed 42
 */
export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const uniform = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const normal = (): number => {
    // Box-Muller; one fresh pair per call keeps the number of draws per call fixed,
    // so sequences stay aligned when a caller extends a simulation.
    const u1 = uniform() || 1e-12;
    const u2 = uniform();
    return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  };
  return { uniform, normal };
}

/** Mix several integers into one 32-bit seed (for keyed sub-streams). */
export function mixSeed(...parts: number[]): number {
  let h = 0x811c9dc5;
  for (const p of parts) {
    h ^= p >>> 0;
    h = Math.imul(h, 0x01000193) >>> 0;
    h ^= Math.floor(p / 4294967296) >>> 0;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}
