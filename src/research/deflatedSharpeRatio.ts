import { expectedMaxSharpeIn } from "./expectedMaxSharpe.js";
import { psrAt } from "./probabilisticSharpeRatio.js";
import { resolveSharpeStats, type SharpeStatsInput } from "./sharpeStats.js";

/** Options of {@link deflatedSharpeRatio}. */
export interface DeflatedSharpeOptions {
  /** N, the number of (independent) variants tried before this one was picked; ≥ 1. A sweep's variant count. */
  readonly trials: number;
  /**
   * V, the variance of the trials' per-period Sharpe ratios (not annualised:
   * divide an annualised variance by periodsPerYear), e.g. the sample
   * variance of a sweep's per-period Sharpe column.
   */
  readonly trialSharpeVariance: number;
}

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
 * formula). Reported: `dsr` in [0, 1] (the paper calls a strategy
 * significant at DSR ≥ 0.95) and `expectedMaxSharpe` = SR₀, per period.
 * NaN with fewer than 2 returns, a constant series or NaN stats.
 * @throws InvalidArgumentError on trials not an integer ≥ 1, a negative or non-finite variance, or malformed stats
 * @example deflatedSharpeRatio({ sharpe: 2.5 / Math.sqrt(250), n: 1250, skewness: -3, excessKurtosis: 7 }, { trials: 100, trialSharpeVariance: 1 / 500 }) // { dsr: ≈0.9004, expectedMaxSharpe: ≈0.1132 } (the paper's example)
 */
export function deflatedSharpeRatio(
  stats: SharpeStatsInput,
  options: DeflatedSharpeOptions,
): { readonly dsr: number; readonly expectedMaxSharpe: number } {
  const s = resolveSharpeStats(stats, "deflatedSharpeRatio");
  const sr0 = expectedMaxSharpeIn(options?.trials, options?.trialSharpeVariance, "deflatedSharpeRatio");
  return { dsr: psrAt(s, sr0), expectedMaxSharpe: sr0 };
}
