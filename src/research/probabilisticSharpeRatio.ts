import { normalCdf } from "../metrics/normalCdf.js";
import type { AnnualisationFields } from "../metrics/ReturnsOptions.js";
import { checkNumberOption } from "./checkNumberOption.js";
import { sharpeAnnualisation } from "./sharpeAnnualisation.js";
import { sharpeStandardError } from "./sharpeStandardError.js";
import { resolveSharpeStats, type SharpeStats, type SharpeStatsInput } from "./sharpeStats.js";

/** Options of {@link probabilisticSharpeRatio}. */
export interface ProbabilisticSharpeOptions extends AnnualisationFields {
  /**
   * SR*, the annualised Sharpe ratio to beat (annualised with `periodsPerYear`, or
   * inferred from `time`, which a non-zero benchmark needs); default 0.
   */
  readonly benchmark?: number;
}

/**
 * Probabilistic Sharpe ratio: the probability that the true Sharpe ratio
 * exceeds a benchmark SR*, given the estimate's length, skewness and
 * kurtosis (Bailey & López de Prado 2012, "The Sharpe ratio efficient
 * frontier", Journal of Risk 15(2)):
 *
 * `PSR(SR*) = Φ( (SR − SR*) · sqrt(n − 1) / sqrt(1 − γ₃·SR + (γ₄ − 1)/4 · SR²) ) = Φ( (SR − SR*) / σ(SR) )`
 *
 * computed per period: SR the per-period Sharpe ratio (`sharpePerPeriod`),
 * SR* = benchmark / √periodsPerYear, σ(SR) its standard error
 * ({@link sharpeStandardError}, a view of the library's one Sharpe standard
 * error, sharpeRatioStandardError), γ₃ the skewness and γ₄ the
 * (non-excess) kurtosis = excessKurtosis + 3, population moments (see
 * {@link SharpeStats}). Pass a return series or a stats object. A unitless
 * probability in [0, 1]. NaN with fewer than 2 returns, a constant series, or
 * NaN stats.
 * @throws InvalidArgumentError when `benchmark` is not a finite number, a non-zero benchmark comes without periodsPerYear or time, or the stats object is malformed
 * @example probabilisticSharpeRatio({ sharpePerPeriod: 0.1, n: 400, skewness: 0, excessKurtosis: 0 }).psr // ≈ 0.97684 = Φ(0.1·sqrt(399)/sqrt(1.005))
 * @example probabilisticSharpeRatio(dailyReturns, { benchmark: 1, periodsPerYear: 365 }).psr // P(true annualised Sharpe > 1)
 */
export function probabilisticSharpeRatio(
  stats: SharpeStatsInput,
  options: ProbabilisticSharpeOptions = {},
): { readonly psr: number } {
  const where = "probabilisticSharpeRatio";
  const s = resolveSharpeStats(stats, where);
  const benchmark = checkNumberOption(options.benchmark ?? 0, "benchmark", where, {
    hint: "an annualised Sharpe ratio, e.g. 0 or 1 (with periodsPerYear)",
  });
  const root = sharpeAnnualisation(options, where, benchmark !== 0, "benchmark");
  return { psr: psrAt(s, benchmark / root) };
}

/** Φ((SR − SR*) / σ(SR)) of checked stats, SR* per period; NaN where σ(SR) is (n < 2, constant series, NaN stats). @internal */
export function psrAt(stats: SharpeStats, benchmarkPerPeriod: number): number {
  return normalCdf((stats.sharpePerPeriod - benchmarkPerPeriod) / sharpeStandardError(stats));
}
