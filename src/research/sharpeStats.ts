import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { kurtosis } from "../metrics/kurtosis.js";
import { checkReturns } from "../metrics/ReturnsOptions.js";
import { sharpeRatio } from "../metrics/sharpeRatio.js";
import { skewness } from "../metrics/skewness.js";

/**
 * What the Sharpe-ratio statistics (PSR, MinTRL, DSR) need to know about a
 * return series, following Bailey & López de Prado (2012, 2014):
 * - `sharpePerPeriod`: mean / standard deviation **per period** (not
 *   annualised: the library's `sharpeRatio` with `periodsPerYear: 1`),
 *   standard deviation with ddof = 1. Everywhere else in the library a
 *   Sharpe ratio named `sharpe`/`sharpeRatio` is annualised;
 * - `n`: the number of returns (T in the papers);
 * - `skewness`: γ₃ = m₃ / m₂^1.5 with population central moments (divided by
 *   n; scipy.stats.skew with bias=True);
 * - `excessKurtosis`: γ₄ − 3 with γ₄ = m₄ / m₂² from population central
 *   moments (scipy.stats.kurtosis with bias=True, fisher=True); 0 for normal
 *   returns. The papers' formulas use the non-excess γ₄; the functions add 3.
 */
export interface SharpeStats {
  readonly sharpePerPeriod: number;
  readonly n: number;
  readonly skewness: number;
  readonly excessKurtosis: number;
}

/** A stats object or the per-period return series it is computed from. */
export type SharpeStatsInput = SharpeStats | ArrayLike<number>;

/**
 * The {@link SharpeStats} of a per-period return series. NaN returns are
 * skipped (`n` counts the others). Fewer than 2 returns give NaN Sharpe; a
 * constant series gives a Sharpe of ±Infinity (or NaN for all zeros) and NaN
 * moments, so every statistic built on it is NaN.
 * @throws InvalidArgumentError when `returns` is not an array
 * @example sharpeStats([0.01, 0.02, -0.01, 0.03]) // { sharpePerPeriod: ≈0.7319, n: 4, skewness: ≈-0.4347, excessKurtosis: ≈-1.1543 }
 */
export function sharpeStats(returns: ArrayLike<number>): SharpeStats {
  checkReturns(returns, "sharpeStats");
  let n = 0;
  for (let i = 0; i < returns.length; i++) if (!Number.isNaN(returns[i] as number)) n++;
  return {
    sharpePerPeriod: sharpeRatio(returns, { periodsPerYear: 1 }),
    n,
    skewness: skewness(returns),
    excessKurtosis: kurtosis(returns),
  };
}

/** Stats from stats or returns, the stats object checked. @internal */
export function resolveSharpeStats(input: SharpeStatsInput, where: string): SharpeStats {
  if (input === null || typeof input !== "object") {
    throw new InvalidArgumentError(
      "stats",
      `${where}: needs a return series or { sharpePerPeriod, n, skewness, excessKurtosis }, got ${String(input)}`,
    );
  }
  if (typeof (input as ArrayLike<number>).length === "number") return sharpeStats(input as ArrayLike<number>);
  const stats = input as SharpeStats;
  for (const key of ["sharpePerPeriod", "skewness", "excessKurtosis"] as const) {
    if (typeof stats[key] !== "number") {
      const renamed = key === "sharpePerPeriod" && "sharpe" in stats ? " (the per-period Sharpe is named sharpePerPeriod, not sharpe)" : "";
      throw new InvalidArgumentError(
        "stats",
        `${where}: stats.${key} must be a number (NaN allowed), got ${String(stats[key])}${renamed}; pass a return series or sharpeStats(returns)`,
      );
    }
  }
  if (typeof stats.n !== "number" || !Number.isInteger(stats.n) || stats.n < 0) {
    throw new InvalidArgumentError("stats", `${where}: stats.n must be a non-negative integer (the number of returns), got ${String(stats.n)}`);
  }
  return stats;
}
