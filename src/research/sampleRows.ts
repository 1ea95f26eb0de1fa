import { createRng } from "../random/prng.js";

/**
 * A uniform random sample of `k` of the rows 0..n−1 without replacement, in
 * ascending order, deterministic for a `seed`: the first k draws of a
 * Fisher–Yates shuffle (Knuth, TAOCP vol. 2, Algorithm P) driven by the
 * library's seeded generator (mulberry32). All rows when k ≥ n. It sees only
 * n, never the rows' contents, so a sample made with it cannot favour a row
 * for its performance.
 * @example sampleRows(10, 3, 0) // three distinct rows of 0..9, the same for seed 0 on every run
 * @internal
 */
export function sampleRows(n: number, k: number, seed: number): number[] {
  if (k >= n) return Array.from({ length: n }, (_, i) => i);
  const rng = createRng(seed);
  const rows = Int32Array.from({ length: n }, (_, i) => i);
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(rng.uniform() * (n - i));
    const t = rows[i] as number;
    rows[i] = rows[j] as number;
    rows[j] = t;
  }
  return Array.from(rows.subarray(0, k)).sort((a, b) => a - b);
}
