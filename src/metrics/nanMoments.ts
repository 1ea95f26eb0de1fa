/**
 * NaN-skipping moments, the numpy `nanmean` / `nanstd` that empyrical uses.
 * The standard deviation is two-pass (mean first, then squared deviations)
 * and is exactly 0 when every non-NaN value is identical, so a constant
 * series gives a zero-variance answer (not 1e-18 of rounding noise).
 * @internal
 */
export interface NanMoments {
  /** Number of non-NaN values. */
  readonly count: number;
  readonly mean: number;
  /** Standard deviation with the given delta degrees of freedom; NaN when count <= ddof. */
  readonly std: number;
}

/** Moments of `x_i - adjust(i)` over the indices where that difference is not NaN. @internal */
export function nanMoments(x: ArrayLike<number>, ddof = 1, adjust?: (i: number) => number): NanMoments {
  const n = x.length;
  let count = 0;
  let sum = 0;
  let first = Number.NaN;
  let constant = true;
  for (let i = 0; i < n; i++) {
    const v = adjust ? (x[i] as number) - adjust(i) : (x[i] as number);
    if (Number.isNaN(v)) continue;
    if (count === 0) first = v;
    else if (v !== first) constant = false;
    count++;
    sum += v;
  }
  if (count === 0) return { count, mean: Number.NaN, std: Number.NaN };
  const mean = constant ? first : sum / count;
  if (count <= ddof) return { count, mean, std: Number.NaN };
  if (constant) return { count, mean, std: 0 };
  let ss = 0;
  let comp = 0;
  for (let i = 0; i < n; i++) {
    const v = adjust ? (x[i] as number) - adjust(i) : (x[i] as number);
    if (Number.isNaN(v)) continue;
    const d = v - mean;
    ss += d * d;
    comp += d;
  }
  // Corrected two-pass formula (Chan, Golub & LeVeque): removes the rounding in the mean.
  const variance = (ss - (comp * comp) / count) / (count - ddof);
  return { count, mean, std: Math.sqrt(Math.max(0, variance)) };
}
