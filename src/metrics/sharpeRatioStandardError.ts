import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { sharpeVarianceTerm } from "./sharpeVarianceTerm.js";

/** Options of {@link sharpeRatioStandardError}. */
export interface SharpeStandardErrorOptions {
  /** How many returns the Sharpe ratio was computed from (n). */
  readonly observations: number;
  /** Bars per year the Sharpe ratio was annualised with (1 for a per-period ratio). */
  readonly periodsPerYear: number;
  /** Skewness γ₃ of the returns, population moments (scipy.stats.skew, bias=True); default 0 (normal returns). */
  readonly skewness?: number;
  /** Excess kurtosis γ₄ − 3 of the returns, population moments (scipy.stats.kurtosis, fisher=True, bias=True); default 0 (normal returns). */
  readonly excessKurtosis?: number;
}

/**
 * Standard error of a Sharpe ratio estimated from n returns, in the units of
 * the Sharpe ratio given (annualised with `periodsPerYear` P, or per period
 * with P = 1). With the per-period ratio SR_p = sharpe / sqrt(P):
 *
 * `SE = sqrt(P · (1 − γ₃·SR_p + (γ₄ − 1)/4 · SR_p²) / (n − 1))`, γ₄ = excessKurtosis + 3,
 *
 * the σ̂(SR̂) of Bailey & López de Prado (2012), "The Sharpe ratio efficient
 * frontier", Journal of Risk 15(2): their PSR is
 * Φ((SR̂ − SR*)·sqrt(n − 1) / sqrt(1 − γ₃·SR̂ + (γ₄ − 1)/4·SR̂²)) = Φ((SR̂ − SR*) / SE),
 * and the same n − 1 runs through MinTRL and the deflated Sharpe ratio
 * (2014), so this library uses n − 1 everywhere. The bracket is Mertens'
 * (2002) asymptotic variance (see sharpeVarianceTerm). Without `skewness`
 * and `excessKurtosis` the returns are taken as normal (0 and 0) and this is
 * Lo's (2002, "The Statistics of Sharpe Ratios", FAJ 58(4)) i.i.d. error
 * `sqrt((P + sharpe² / 2) / (n − 1))`; Lo divides by n, an asymptotically
 * equivalent choice (a factor sqrt(n / (n − 1))) that this library does not use.
 * On 40 daily bars a Sharpe of 1 has SE ≈ 3.06: its sign is not known.
 * Serial correlation (Lo's non-i.i.d. case) makes the true error larger.
 *
 * NaN when n < 2, when `sharpe` or a moment is NaN, when `sharpe` is infinite
 * (a zero-variance series: the asymptotic variance is not defined) and when
 * the moments are inconsistent (a bracket ≤ 0).
 * @param sharpe the Sharpe ratio, annualised with `periodsPerYear` (as {@link sharpeRatio} returns it)
 * @throws InvalidArgumentError (naming the option) when observations is not a non-negative integer, periodsPerYear is not positive and finite, or skewness / excessKurtosis is given and not a number
 * @example sharpeRatioStandardError(1, { observations: 40, periodsPerYear: 365 }) // ≈ 3.0613 = sqrt((365 + 1/2) / 39)
 * @example sharpeRatioStandardError(0.5, { observations: 101, periodsPerYear: 1, skewness: -1, excessKurtosis: 3 }) // ≈ 0.13463 = sqrt((1 + 0.5 + 5/4 · 0.25) / 100)
 */
export function sharpeRatioStandardError(sharpe: number, options: SharpeStandardErrorOptions): number {
  const where = "sharpeRatioStandardError";
  const { observations: n, periodsPerYear: ppy } = options ?? ({} as Partial<SharpeStandardErrorOptions>);
  if (typeof n !== "number" || !Number.isInteger(n) || n < 0) {
    throw new InvalidArgumentError("observations", `${where}: observations must be the number of returns (an integer >= 0), got ${String(n)}`);
  }
  if (typeof ppy !== "number" || !Number.isFinite(ppy) || ppy <= 0) {
    throw new InvalidArgumentError(
      "periodsPerYear",
      `${where}: periodsPerYear must be the positive finite number the Sharpe ratio was annualised with (1 if it was not), got ${String(ppy)}`,
    );
  }
  const skewness: unknown = options.skewness === undefined ? 0 : options.skewness;
  const excessKurtosis: unknown = options.excessKurtosis === undefined ? 0 : options.excessKurtosis;
  if (typeof skewness !== "number") throw badMoment("skewness", skewness);
  if (typeof excessKurtosis !== "number") throw badMoment("excessKurtosis", excessKurtosis);
  if (n < 2) return Number.NaN;
  return Math.sqrt((ppy * sharpeVarianceTerm(sharpe / Math.sqrt(ppy), { skewness, excessKurtosis })) / (n - 1));
}

function badMoment(name: string, value: unknown): InvalidArgumentError {
  return new InvalidArgumentError(name, `sharpeRatioStandardError: ${name} must be a number (omit it for normal returns, 0), got ${String(value)}`);
}
