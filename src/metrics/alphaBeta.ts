import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { checkReturns, periodsPerYearOf, type ReturnsOptions } from "./ReturnsOptions.js";

/** Jensen's alpha (annualised) and beta of a strategy against a factor (e.g. buy-and-hold BTC). */
export interface AlphaBeta {
  /** Annualised alpha, decimal per year (compounded, as empyrical >= 0.5). */
  readonly alpha: number;
  /** Sensitivity to the factor: cov(r, f) / var(f). */
  readonly beta: number;
}

/**
 * Alpha and beta against factor returns (CAPM regression without the
 * intercept's standard error).
 *
 * Definition (empyrical `alpha_beta_aligned`): over the bars where both
 * returns are known, `beta = mean((f - mean f) * r) / mean((f - mean f)^2)`
 * (population moments; the same slope as an OLS fit of r on f), and
 * `alpha = (1 + mean(r - rf - beta * (f - rf))) ** periodsPerYear - 1`.
 * Both NaN with fewer than 2 returns, fewer than 2 complete pairs, or a
 * constant factor.
 * Reference: quantopian/empyrical stats.py `alpha_beta_aligned`, `beta_aligned`, `alpha_aligned`.
 * @param factorReturns benchmark returns, same length and bars as `returns`
 * @param options.riskFree constant per-period risk-free return (default 0)
 * @param options.periodsPerYear bars per year (365 daily, 8760 hourly, 525 600 one-minute), or
 * @param options.time bar times (epoch ms) to infer it from; one of the two is required (see {@link AnnualisationOptions})
 * @throws InvalidArgumentError when the lengths differ, or periodsPerYear or time is missing or bad
 * @example alphaBeta([0.02, 0.04, -0.02], [0.01, 0.02, -0.01]).beta // 2
 */
export function alphaBeta(
  returns: ArrayLike<number>,
  factorReturns: ArrayLike<number>,
  options: ReturnsOptions & { readonly riskFree?: number },
): AlphaBeta {
  checkReturns(returns, "alphaBeta");
  checkReturns(factorReturns, "alphaBeta", "factorReturns");
  if (returns.length !== factorReturns.length) {
    throw new InvalidArgumentError(
      "factorReturns",
      `alphaBeta: returns and factorReturns must cover the same bars, got ${returns.length} and ${factorReturns.length} values`,
    );
  }
  const ppy = periodsPerYearOf(options, "alphaBeta");
  const rf = options?.riskFree ?? 0;
  if (typeof rf !== "number" || Number.isNaN(rf)) {
    throw new InvalidArgumentError("riskFree", `alphaBeta: riskFree must be a number (per-period return), got ${String(rf)}`);
  }
  const nan = { alpha: Number.NaN, beta: Number.NaN };
  const n = returns.length;
  if (n < 2) return nan;
  let count = 0;
  let mf = 0;
  for (let i = 0; i < n; i++) {
    const r = returns[i] as number;
    const f = factorReturns[i] as number;
    if (Number.isNaN(r) || Number.isNaN(f)) continue;
    count++;
    mf += f;
  }
  if (count < 2) return nan;
  mf /= count;
  let cov = 0;
  let varF = 0;
  for (let i = 0; i < n; i++) {
    const r = returns[i] as number;
    const f = factorReturns[i] as number;
    if (Number.isNaN(r) || Number.isNaN(f)) continue;
    const d = f - mf;
    cov += d * r;
    varF += d * d;
  }
  if (varF === 0) return nan;
  const beta = cov / varF;
  let sum = 0;
  let m = 0;
  for (let i = 0; i < n; i++) {
    const a = (returns[i] as number) - rf - beta * ((factorReturns[i] as number) - rf);
    if (Number.isNaN(a)) continue;
    sum += a;
    m++;
  }
  return { alpha: (1 + sum / m) ** ppy - 1, beta };
}
