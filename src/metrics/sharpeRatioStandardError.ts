import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";

/** Options of {@link sharpeRatioStandardError}. */
export interface SharpeStandardErrorOptions {
  /** How many returns the Sharpe ratio was computed from (n). */
  readonly observations: number;
  /** Bars per year the Sharpe ratio was annualised with (1 for a per-period ratio). */
  readonly periodsPerYear: number;
}

/**
 * Standard error of an annualised Sharpe ratio estimated from n returns,
 * Lo (2002), "The Statistics of Sharpe Ratios", Financial Analysts Journal
 * 58(4), eq. for i.i.d. returns: per period SE(SR_p) = sqrt((1 + SR_p² / 2) / n),
 * annualised by sqrt(periodsPerYear). With SR_p = SR / sqrt(P) this is
 * `sqrt((P + SR² / 2) / n)` in the units of the annualised `sharpe`.
 * On 40 daily bars a Sharpe of 1 has SE ≈ 3.0: its sign is not known.
 * Serial correlation (Lo's non-i.i.d. case) makes the true error larger.
 *
 * NaN when `sharpe` is NaN or n < 2; Infinity when `sharpe` is infinite.
 * @param sharpe the annualised Sharpe ratio (as {@link sharpeRatio} returns it)
 * @throws InvalidArgumentError when observations is not a non-negative integer or periodsPerYear is not positive and finite
 * @example sharpeRatioStandardError(1, { observations: 40, periodsPerYear: 365 }) // ≈ 3.0225 = sqrt((365 + 0.5) / 40)
 */
export function sharpeRatioStandardError(sharpe: number, options: SharpeStandardErrorOptions): number {
  const { observations: n, periodsPerYear: ppy } = options;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 0) {
    throw new InvalidArgumentError("observations", `sharpeRatioStandardError: observations must be the number of returns (an integer >= 0), got ${String(n)}`);
  }
  if (typeof ppy !== "number" || !Number.isFinite(ppy) || ppy <= 0) {
    throw new InvalidArgumentError(
      "periodsPerYear",
      `sharpeRatioStandardError: periodsPerYear must be the positive finite number the Sharpe ratio was annualised with (1 if it was not), got ${String(ppy)}`,
    );
  }
  if (n < 2 || Number.isNaN(sharpe)) return Number.NaN;
  return Math.sqrt((ppy + (sharpe * sharpe) / 2) / n);
}
