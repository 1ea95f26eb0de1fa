/** The higher moments of the returns a Sharpe ratio was estimated from (population moments). */
export interface SharpeMoments {
  /** γ₃ = m₃ / m₂^1.5 (scipy.stats.skew, bias=True); 0 for normal returns. */
  readonly skewness: number;
  /** γ₄ − 3 with γ₄ = m₄ / m₂² (scipy.stats.kurtosis, fisher=True, bias=True); 0 for normal returns. */
  readonly excessKurtosis: number;
}

/**
 * The bracket of the asymptotic variance of an estimated per-period Sharpe
 * ratio SR (Mertens 2002; the `1 − γ₃·SR + (γ₄ − 1)/4 · SR²` of Bailey &
 * López de Prado's PSR, MinTRL and DSR):
 *
 * `n · Var(SR̂) → 1 − γ₃·SR + (γ₄ − 1)/4 · SR²`, γ₄ = excessKurtosis + 3.
 *
 * Normal returns (γ₃ = 0, γ₄ = 3) give Lo's (2002) i.i.d. bracket
 * `1 + SR² / 2`. Unitless. The one definition of this bracket in the library:
 * {@link sharpeRatioStandardError} divides it by n − 1, and the research
 * statistics use it through that function (PSR, DSR) or directly (MinTRL).
 *
 * For the moments of any distribution γ₄ ≥ 1 + γ₃² (Pearson), so the bracket
 * is ≥ (1 − γ₃·SR/2)² ≥ 0; a bracket ≤ 0 means moments no distribution has,
 * and gives NaN, as do NaN inputs and an infinite SR (a zero-variance
 * series, where the asymptotic variance is not defined).
 * @example sharpeVarianceTerm(0.5, { skewness: -1, excessKurtosis: 3 }) // 1.8125 = 1 + 0.5 + (6 − 1)/4 · 0.25
 * @internal
 */
export function sharpeVarianceTerm(sharpe: number, moments: SharpeMoments): number {
  const term = 1 - moments.skewness * sharpe + ((moments.excessKurtosis + 3 - 1) / 4) * sharpe * sharpe;
  return term > 0 && Number.isFinite(term) ? term : Number.NaN;
}
