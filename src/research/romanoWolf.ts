/**
 * Romano & Wolf's step-down multiple test of which variants beat the benchmark, on the
 * studentised statistics t_k = √n · mean_k / sd_k of a return matrix (Romano, J. P. & Wolf, M.
 * (2005), "Stepwise multiple testing as formalized data snooping", Econometrica 73(4)): with the
 * variants ordered by t (largest first), variant j's adjusted p-value is the share of bootstrap
 * resamples in which the largest centred studentised statistic among the variants ranked j and
 * below, max_{k ≥ j} √n (mean*_k − mean_k) / sd*_k, reaches t_j, made monotone down the ranking
 * (a variant's adjusted p-value is at least that of every variant ranked above it). A variant
 * beats the benchmark at level α when its adjusted p-value is ≤ α; the family-wise error rate
 * (any false claim among them) is then at most α asymptotically.
 */
export interface RomanoWolf {
  /** Level of the claims (family-wise error rate). */
  readonly alpha: number;
  /** Adjusted p-value of every variant, in the matrix's order (NaN for a variant with no t: constant or too short). */
  readonly adjustedPValues: Float64Array;
  /** The variants (matrix positions, ascending) whose adjusted p-value is ≤ alpha: those that beat the benchmark. */
  readonly rejected: readonly number[];
}

/**
 * The running counts of the step-down over bootstrap resamples: `add` takes one resample's
 * centred studentised statistics (by matrix position), `result` gives the adjusted p-values.
 * @internal
 */
export interface RomanoWolfCounter {
  add(centred: Float64Array): void;
  result(alpha: number): RomanoWolf;
}

/**
 * A step-down counter for the observed statistics `t` (NaN: the variant takes no part).
 * @internal
 */
export function romanoWolfCounter(t: Float64Array): RomanoWolfCounter {
  const order = Array.from(t.keys())
    .filter((k) => Number.isFinite(t[k] as number))
    .sort((a, b) => (t[b] as number) - (t[a] as number) || a - b);
  const counts = new Float64Array(order.length);
  let draws = 0;
  return {
    add(centred) {
      draws++;
      let suffixMax = Number.NEGATIVE_INFINITY;
      for (let j = order.length - 1; j >= 0; j--) {
        const k = order[j] as number;
        const z = centred[k] as number;
        if (z > suffixMax) suffixMax = z;
        if (suffixMax >= (t[k] as number)) counts[j] = (counts[j] as number) + 1;
      }
    },
    result(alpha) {
      const adjustedPValues = new Float64Array(t.length).fill(Number.NaN);
      let running = 0;
      order.forEach((k, j) => {
        running = Math.max(running, draws > 0 ? (counts[j] as number) / draws : Number.NaN);
        adjustedPValues[k] = running;
      });
      const rejected = Array.from(adjustedPValues.keys()).filter((k) => (adjustedPValues[k] as number) <= alpha);
      return { alpha, adjustedPValues, rejected };
    },
  };
}
