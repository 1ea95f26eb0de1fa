import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { nanMoments } from "./nanMoments.js";
import { checkReturns, rateReader, type PeriodRate } from "./ReturnsOptions.js";

/**
 * Information ratio, per period (NOT annualised, as in empyrical): the mean
 * active return over its sample standard deviation (ddof = 1),
 * `mean(r - b) / std(r - b)`, NaN active returns skipped. Multiply by
 * `sqrt(periodsPerYear)` for an annual figure. NaN with fewer than 2 returns
 * or zero tracking error.
 * Reference: quantopian/empyrical stats.py `excess_sharpe` / `information_ratio`.
 * @param benchmark benchmark returns per bar, or a constant per-period return
 * @throws InvalidArgumentError when the benchmark has another length
 * @example informationRatio([0.02, 0.0, 0.01], 0) // 1
 */
export function informationRatio(returns: ArrayLike<number>, benchmark: PeriodRate): number {
  checkReturns(returns, "informationRatio");
  if (benchmark === undefined) {
    throw new InvalidArgumentError("benchmark", "informationRatio: benchmark must be a number or one return per bar, got undefined");
  }
  const b = rateReader(benchmark, returns.length, "benchmark", "informationRatio");
  if (returns.length < 2) return Number.NaN;
  const { mean, std } = nanMoments(returns, 1, b);
  return std === 0 ? Number.NaN : mean / std;
}
