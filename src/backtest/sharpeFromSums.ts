/**
 * Annualised Sharpe ratio from a run's sums: count returns r_i with Σ r_i = `sum` and
 * Σ r_i² = `sumSquares`; mean / standard deviation (ddof 1) x sqrt(periodsPerYear), the
 * definition of `sharpeRatio` (empyrical's) computed from the moments instead of the series.
 * NaN with fewer than 2 returns or with zero variance and zero mean; ±Infinity with zero
 * variance and a non-zero mean (as sharpeRatio for a constant series).
 * @example sharpeFromSums(0.06, 0.0014, 3, 252) // the returns 0.01, 0.02, 0.03: ≈ 31.75, as sharpeRatio([0.01, 0.02, 0.03], { periodsPerYear: 252 })
 * @internal
 */
export function sharpeFromSums(sum: number, sumSquares: number, count: number, periodsPerYear: number): number {
  if (!(count >= 2)) return Number.NaN;
  const mean = sum / count;
  const variance = Math.max(0, (sumSquares - sum * mean) / (count - 1));
  return (mean / Math.sqrt(variance)) * Math.sqrt(periodsPerYear);
}
