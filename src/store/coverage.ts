/** Closed time intervals [from, to] in epoch ms, sorted and disjoint: what a store series has fetched. */
export type Coverage = readonly (readonly [number, number])[];

/**
 * Add [from, to] to a coverage, merging intervals that overlap or touch
 * within `joinMs` (one bar: two fetches a minute apart leave no hole).
 * Returns a new coverage; the input is not modified.
 * @example addCoverage([[0, 10]], 12, 20, 5) // [[0, 20]]
 * @internal
 */
export function addCoverage(cov: Coverage, from: number, to: number, joinMs = 60_000): Coverage {
  const all = [...cov, [from, to] as const].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [a, b] of all) {
    const last = out[out.length - 1];
    if (last !== undefined && a <= last[1] + joinMs) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

/**
 * The interval of `cov` that contains `t`, if any.
 * @example coveringInterval([[0, 10], [20, 30]], 25) // [20, 30]
 * @internal
 */
export function coveringInterval(cov: Coverage, t: number): readonly [number, number] | undefined {
  return cov.find(([a, b]) => a <= t && t <= b);
}
