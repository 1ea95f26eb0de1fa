import { normalQuantile } from "../metrics/normalQuantile.js";
import type { AnnualisationFields } from "../metrics/ReturnsOptions.js";
import { checkNumberOption } from "./checkNumberOption.js";
import { sharpeAnnualisation } from "./sharpeAnnualisation.js";
import { sharpeVarianceTerm } from "../metrics/sharpeVarianceTerm.js";
import { resolveSharpeStats, type SharpeStatsInput } from "./sharpeStats.js";

/** Options of {@link minTrackRecordLength}. */
export interface MinTrackRecordOptions extends AnnualisationFields {
  /**
   * SR*, the annualised Sharpe ratio to beat (annualised with `periodsPerYear`, or
   * inferred from `time`, which a non-zero benchmark needs); default 0. To judge a
   * selected variant, pass the DSR's `expectedMaxSharpe` (the deflated bar).
   */
  readonly benchmark?: number;
  /** Probability 1 − α that the true Sharpe exceeds SR*; default 0.95. */
  readonly confidence?: number;
}

/**
 * Minimum track record length: how many returns (of the same period as the
 * Sharpe ratio) are needed before the observed Sharpe ratio beats SR* with
 * the given confidence (Bailey & López de Prado 2012, "The Sharpe ratio
 * efficient frontier"):
 *
 * `MinTRL = 1 + (1 − γ₃·SR + (γ₄ − 1)/4 · SR²) · (Z_{confidence} / (SR − SR*))²`
 *
 * computed per period: SR the per-period Sharpe (`sharpePerPeriod`), SR* =
 * benchmark / √periodsPerYear, γ₃ skewness, γ₄ = excessKurtosis + 3
 * (population moments).
 * The bracket is the library's one Sharpe variance bracket (sharpeVarianceTerm)
 * and the `1 +` is the n − 1 of its standard error: MinTRL is the n at which
 * (SR − SR*) / sharpeRatioStandardError(SR, { observations: n, periodsPerYear: 1, … })
 * equals Z_{confidence}.
 * `n` is a real number of periods (not rounded): PSR(SR*) equals
 * `confidence` at that length. Infinity when SR ≤ SR* (no track record is
 * long enough); NaN for NaN stats or a constant series. The stats' own `n`
 * is not used.
 * @throws InvalidArgumentError on a confidence outside (0, 1), a non-finite benchmark, a non-zero benchmark without periodsPerYear or time, or malformed stats
 * @example minTrackRecordLength({ sharpePerPeriod: 2 / Math.sqrt(12), n: 24, skewness: -0.72, excessKurtosis: 2.78 }, { benchmark: 1, periodsPerYear: 12 }).n // ≈ 59.895 months (the paper's appendix example)
 */
export function minTrackRecordLength(
  stats: SharpeStatsInput,
  options: MinTrackRecordOptions = {},
): { readonly n: number } {
  const where = "minTrackRecordLength";
  const s = resolveSharpeStats(stats, where);
  const benchmark = checkNumberOption(options.benchmark ?? 0, "benchmark", where, { hint: "an annualised Sharpe ratio, e.g. 0 (with periodsPerYear when not 0)" });
  const root = sharpeAnnualisation(options, where, benchmark !== 0, "benchmark");
  const confidence = checkNumberOption(options.confidence ?? 0.95, "confidence", where, {
    min: 0,
    minExclusive: true,
    max: 1,
    maxExclusive: true,
    hint: "0.95 for 95 %",
  });
  const sr = s.sharpePerPeriod;
  const term = sharpeVarianceTerm(sr, s);
  if (Number.isNaN(term) || Number.isNaN(sr)) return { n: Number.NaN };
  const bar = benchmark / root;
  if (!(sr > bar)) return { n: Infinity };
  const z = normalQuantile(confidence) / (sr - bar);
  return { n: 1 + term * z * z };
}
