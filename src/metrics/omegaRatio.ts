import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { checkReturns, periodsPerYearOf, rateReader, type PeriodRate, type AnnualisationFields } from "./ReturnsOptions.js";

/**
 * Omega ratio: probability-weighted gains over losses relative to a threshold.
 *
 * Definition (empyrical `omega_ratio`): the threshold per period is
 * `(1 + requiredReturn) ** (1 / periodsPerYear) - 1` (requiredReturn is
 * ANNUAL; used as is when periodsPerYear is 1), `d_i = r_i - riskFree_i - threshold`,
 * and omega = `sum(d_i > 0) / -sum(d_i < 0)`. NaN differences are skipped.
 * NaN with fewer than 2 returns, when requiredReturn <= -1, or when no d_i is
 * negative.
 * Reference: quantopian/empyrical stats.py `omega_ratio`; Keating & Shadwick (2002).
 * @param options.riskFree per-period risk-free return, constant or per bar (default 0)
 * @param options.requiredReturn annual minimum acceptable return (default 0)
 * @param options.periodsPerYear bars per year, or
 * @param options.time bar times (epoch ms) to infer it from: one of the two is required with a
 *   non-zero requiredReturn, to turn it into a per-period threshold (see {@link AnnualisationOptions})
 * @throws InvalidArgumentError when requiredReturn is not a number, or is non-zero without periodsPerYear or time
 * @example omegaRatio([0.02, -0.01, 0.01]) // 3
 */
export function omegaRatio(
  returns: ArrayLike<number>,
  options?: AnnualisationFields & { readonly riskFree?: PeriodRate; readonly requiredReturn?: number },
): number {
  checkReturns(returns, "omegaRatio");
  const rf = rateReader(options?.riskFree ?? 0, returns.length, "riskFree", "omegaRatio");
  const required = options?.requiredReturn ?? 0;
  if (typeof required !== "number" || Number.isNaN(required)) {
    throw new InvalidArgumentError("requiredReturn", `omegaRatio: requiredReturn must be an annual decimal return, got ${String(required)}`);
  }
  // A zero annual threshold is zero per period whatever the bar length.
  const ppy = required === 0 && options?.periodsPerYear === undefined && options?.time === undefined ? 1 : periodsPerYearOf(options, "omegaRatio");
  const n = returns.length;
  if (n < 2) return Number.NaN;
  let threshold: number;
  if (ppy === 1) threshold = required;
  else if (required <= -1) return Number.NaN;
  else threshold = (1 + required) ** (1 / ppy) - 1;
  let gains = 0;
  let losses = 0;
  for (let i = 0; i < n; i++) {
    const d = (returns[i] as number) - rf(i) - threshold;
    if (d > 0) gains += d;
    else if (d < 0) losses -= d;
  }
  return losses > 0 ? gains / losses : Number.NaN;
}
