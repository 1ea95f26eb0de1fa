/**
 * The metrics a sweep reports for every variant, in column order:
 * - `totalReturn`: final equity / initial equity - 1 (decimal);
 * - `sharpeRatio`: annualised Sharpe ratio of the per-bar returns (`sharpeRatio`, periodsPerYear of the sweep);
 * - `maxDrawdown`: worst peak-to-trough fall, a negative decimal (`maxDrawdown`);
 * - `trades`: round trips, the one still open at the end included (the backtest's `trades.length`);
 * - `turnover`: sum over bars of the notional traded / equity (multiples of equity; the sum of the backtest's `turnover`);
 * - `exposure`: mean over bars of the gross weight held at each close (mean |backtest exposure|; 0..1 at size 1).
 */
export const SWEEP_METRICS = ["totalReturn", "sharpeRatio", "maxDrawdown", "trades", "turnover", "exposure"] as const;

/** One of {@link SWEEP_METRICS}. */
export type SweepMetric = (typeof SWEEP_METRICS)[number];

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
