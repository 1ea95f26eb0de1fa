import { normalCdf } from "../metrics/normalCdf.js";
import { checkNumberOption } from "./checkNumberOption.js";
import { sharpeStandardError } from "./sharpeStandardError.js";
import { resolveSharpeStats, type SharpeStats, type SharpeStatsInput } from "./sharpeStats.js";

/** Options of {@link probabilisticSharpeRatio}. */
export interface ProbabilisticSharpeOptions {
  /** SR*, the per-period (not annualised) Sharpe ratio to beat; default 0. */
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
 * with SR the per-period Sharpe ratio, σ(SR) its standard error
 * ({@link sharpeStandardError}, a view of the library's one Sharpe standard
 * error, sharpeRatioStandardError), γ₃ the skewness and γ₄ the
 * (non-excess) kurtosis = excessKurtosis + 3, population moments (see
 * {@link SharpeStats}). Pass a return series or a stats object. A unitless
 * probability in [0, 1]. NaN with fewer than 2 returns, a constant series, or
 * NaN stats.
 * @throws InvalidArgumentError when `benchmark` is not a finite number or the stats object is malformed
 * @example probabilisticSharpeRatio({ sharpe: 0.1, n: 400, skewness: 0, excessKurtosis: 0 }).psr // ≈ 0.97684 = Φ(0.1·sqrt(399)/sqrt(1.005))
 */
export function probabilisticSharpeRatio(
  stats: SharpeStatsInput,
  options: ProbabilisticSharpeOptions = {},
): { readonly psr: number } {
  const s = resolveSharpeStats(stats, "probabilisticSharpeRatio");
  const benchmark = checkNumberOption(options.benchmark ?? 0, "benchmark", "probabilisticSharpeRatio", {
    hint: "a per-period Sharpe ratio, e.g. 0 or 1 / Math.sqrt(365) for 1 a year on daily bars",
  });
  return { psr: psrAt(s, benchmark) };
}

/** Φ((SR − SR*) / σ(SR)) of checked stats; NaN where σ(SR) is (n < 2, constant series, NaN stats). @internal */
export function psrAt(stats: SharpeStats, benchmark: number): number {
  return normalCdf((stats.sharpe - benchmark) / sharpeStandardError(stats));
}
