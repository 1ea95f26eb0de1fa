import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { nanMoments } from "../metrics/nanMoments.js";
import type { AnnualisationOptions } from "../metrics/ReturnsOptions.js";
import { checkNumberOption } from "./checkNumberOption.js";
import { expectedMaxSharpeIn } from "./expectedMaxSharpe.js";
import { psrAt } from "./probabilisticSharpeRatio.js";
import { sharpeAnnualisation } from "./sharpeAnnualisation.js";
import { resolveSharpeStats, type SharpeStatsInput } from "./sharpeStats.js";

/**
 * Options of {@link deflatedSharpeRatio}: the trials, as their annualised Sharpe ratios
 * (`trialSharpes`) or as their count and variance, and `periodsPerYear` (or `time`), the
 * annualisation of those Sharpe ratios (1 when they are per period).
 */
export type DeflatedSharpeOptions = AnnualisationOptions & {
  /**
   * N, the number of (independent) variants tried before this one was picked; ≥ 1. A sweep's
   * variant count. Default: the length of `trialSharpes` (NaN entries included: a variant
   * that never traded was tried too).
   */
  readonly trials?: number;
  /**
   * The trials' annualised Sharpe ratios, e.g. a sweep's `columns.sharpeRatio`: V is their
   * sample variance (ddof = 1, non-finite entries skipped). Give this or `trialSharpeVariance`.
   */
  readonly trialSharpes?: ArrayLike<number>;
  /** V, the variance of the trials' annualised Sharpe ratios. Give this or `trialSharpes`. */
  readonly trialSharpeVariance?: number;
};

/**
 * Deflated Sharpe ratio: the probability that the true Sharpe ratio of the
 * selected strategy is above zero after correcting for selection among
 * `trials` variants and for non-normal returns (Bailey & López de Prado
 * 2014, "The deflated Sharpe ratio: correcting for selection bias, backtest
 * overfitting and non-normality", Journal of Portfolio Management 40(5)):
 *
 * `DSR = PSR(SR₀)`, with SR₀ = {@link expectedMaxSharpe}(N, V), the Sharpe
 * ratio the best of N skill-less variants is expected to reach.
 *
 * SR, skewness and kurtosis are those of the selected variant's per-period
 * returns (see {@link SharpeStats}; γ₄ = excessKurtosis + 3 in the PSR
 * formula). V and SR₀ are annualised with `periodsPerYear` P (the paper
 * states its example so: V = 1/2 for annualised Sharpe ratios, P = 250);
 * the PSR is evaluated per period, at SR₀ / √P. Reported: `dsr` in [0, 1]
 * (the paper calls a strategy significant at DSR ≥ 0.95) and
 * `expectedMaxSharpe` = SR₀, annualised, directly comparable with
 * `sharpeRatio` and a sweep's Sharpe column.
 * NaN with fewer than 2 returns, a constant series or NaN stats.
 * @throws InvalidArgumentError on trials not an integer ≥ 1, neither or both of trialSharpes and trialSharpeVariance, a negative or non-finite variance, no periodsPerYear or time, or malformed stats
 * @example deflatedSharpeRatio({ sharpePerPeriod: 2.5 / Math.sqrt(250), n: 1250, skewness: -3, excessKurtosis: 7 }, { trials: 100, trialSharpeVariance: 1 / 2, periodsPerYear: 250 }) // { dsr: ≈0.9004, expectedMaxSharpe: ≈1.790 = 0.1132·√250 } (the paper's example)
 * @example deflatedSharpeRatio(sweep.returnsOf(best.index), { trialSharpes: sweep.columns.sharpeRatio, periodsPerYear: sweep.periodsPerYear }).dsr
 */
export function deflatedSharpeRatio(
  stats: SharpeStatsInput,
  options: DeflatedSharpeOptions,
): { readonly dsr: number; readonly expectedMaxSharpe: number } {
  const where = "deflatedSharpeRatio";
  const s = resolveSharpeStats(stats, where);
  if (options === null || typeof options !== "object") {
    throw new InvalidArgumentError("options", `${where}: needs { trials, trialSharpeVariance, periodsPerYear } or { trialSharpes, periodsPerYear }, got ${String(options)}`);
  }
  const root = sharpeAnnualisation(options, where, true, "a trial's Sharpe");
  const { trials, variance } = trialsOf(options, where);
  const sr0 = expectedMaxSharpeIn(trials, variance, where);
  return { dsr: psrAt(s, sr0 / root), expectedMaxSharpe: sr0 };
}

/** N and V from trialSharpes or from trials and trialSharpeVariance. */
function trialsOf(options: DeflatedSharpeOptions, where: string): { trials: number; variance: number } {
  const { trialSharpes, trialSharpeVariance } = options;
  if ((trialSharpes === undefined) === (trialSharpeVariance === undefined)) {
    throw new InvalidArgumentError(
      "trialSharpes",
      `${where}: give either trialSharpes (the trials' annualised Sharpe ratios, e.g. sweep.columns.sharpeRatio) or trialSharpeVariance (their variance), not ${trialSharpes === undefined ? "neither" : "both"}`,
    );
  }
  if (trialSharpes === undefined) {
    return { trials: options.trials as number, variance: trialSharpeVariance as number };
  }
  if (trialSharpes === null || typeof trialSharpes !== "object" || typeof trialSharpes.length !== "number") {
    throw new InvalidArgumentError("trialSharpes", `${where}: trialSharpes must be an array of the trials' annualised Sharpe ratios, got ${String(trialSharpes)}`);
  }
  const finite = Array.from(trialSharpes).filter((x) => Number.isFinite(x));
  const { std } = nanMoments(finite, 1);
  const trials = checkNumberOption(options.trials ?? trialSharpes.length, "trials", where, { min: 1, integer: true, hint: "the number of variants tried" });
  return { trials, variance: finite.length > 1 ? std * std : 0 };
}
