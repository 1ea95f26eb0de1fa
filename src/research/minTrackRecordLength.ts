import { normalQuantile } from "../metrics/normalQuantile.js";
import { checkNumberOption } from "./checkNumberOption.js";
import { sharpeVarianceTerm } from "../metrics/sharpeVarianceTerm.js";
import { resolveSharpeStats, type SharpeStatsInput } from "./sharpeStats.js";

/** Options of {@link minTrackRecordLength}. */
export interface MinTrackRecordOptions {
  /** SR*, the per-period Sharpe ratio to beat; default 0. */
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
 * SR per period, γ₃ skewness, γ₄ = excessKurtosis + 3 (population moments).
 * The bracket is the library's one Sharpe variance bracket (sharpeVarianceTerm)
 * and the `1 +` is the n − 1 of its standard error: MinTRL is the n at which
 * (SR − SR*) / sharpeRatioStandardError(SR, { observations: n, periodsPerYear: 1, … })
 * equals Z_{confidence}.
 * `n` is a real number of periods (not rounded): PSR(SR*) equals
 * `confidence` at that length. Infinity when SR ≤ SR* (no track record is
 * long enough); NaN for NaN stats or a constant series. The stats' own `n`
 * is not used.
 * @throws InvalidArgumentError on a confidence outside (0, 1), a non-finite benchmark or malformed stats
 * @example minTrackRecordLength({ sharpe: 2 / Math.sqrt(12), n: 24, skewness: -0.72, excessKurtosis: 2.78 }, { benchmark: 1 / Math.sqrt(12) }).n // ≈ 59.895 months (the paper's appendix example)
 */
export function minTrackRecordLength(
  stats: SharpeStatsInput,
  options: MinTrackRecordOptions = {},
): { readonly n: number } {
  const where = "minTrackRecordLength";
  const s = resolveSharpeStats(stats, where);
  const benchmark = checkNumberOption(options.benchmark ?? 0, "benchmark", where, { hint: "a per-period Sharpe ratio, e.g. 0" });
  const confidence = checkNumberOption(options.confidence ?? 0.95, "confidence", where, {
    min: 0,
    minExclusive: true,
    max: 1,
    maxExclusive: true,
    hint: "0.95 for 95 %",
  });
  const term = sharpeVarianceTerm(s.sharpe, s);
  if (Number.isNaN(term) || Number.isNaN(s.sharpe)) return { n: Number.NaN };
  if (!(s.sharpe > benchmark)) return { n: Infinity };
  const z = normalQuantile(confidence) / (s.sharpe - benchmark);
  return { n: 1 + term * z * z };
}
