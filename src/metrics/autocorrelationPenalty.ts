import { pearson } from "./spearmanCorrelation.js";

/**
 * quantstats' autocorrelation penalty (stats.py `autocorr_penalty`), the factor by which
 * {@link smartSharpeRatio} scales the standard deviation:
 * `sqrt(1 + 2 Σ_{k=1}^{n-1} ((n - k) / n) |ρ₁|^k)`, ρ₁ the lag-1 Pearson correlation of
 * `x[0..n-2]` with `x[1..n-1]` (numpy `corrcoef`), n = x.length. It is Lo's (2002) variance
 * ratio of a sum of n autocorrelated returns, with the autocorrelation of lag k taken as
 * |ρ₁|^k (an AR(1) reading, its sign dropped, so it is >= 1: it only ever penalises).
 * NaN when ρ₁ is undefined (fewer than 3 values, or a constant lagged series).
 * @param x values without NaN
 * @example autocorrelationPenalty(Float64Array.of(0.01, 0.02, 0.03, 0.01)) // |ρ₁| = 0.5: sqrt(1 + 2 (0.75 x 0.5 + 0.5 x 0.25 + 0.25 x 0.125)) = sqrt(2.0625) ≈ 1.4361
 * @internal
 */
export function autocorrelationPenalty(x: Float64Array): number {
  const n = x.length;
  const c = Math.abs(pearson(x.subarray(0, n - 1), x.subarray(1)));
  if (Number.isNaN(c)) return Number.NaN;
  let sum = 0;
  let power = 1;
  for (let k = 1; k < n; k++) {
    power *= c;
    if (power === 0) break;
    sum += ((n - k) / n) * power;
  }
  return Math.sqrt(1 + 2 * sum);
}
