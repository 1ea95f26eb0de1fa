import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { periodsPerYearOf, type AnnualisationFields } from "../metrics/ReturnsOptions.js";

/**
 * √periodsPerYear, the factor between the per-period Sharpe ratio of a
 * {@link SharpeStats} (`sharpePerPeriod`) and the annualised Sharpe ratios
 * that PSR, MinTRL and DSR take and return (`benchmark`, `trialSharpes`,
 * `trialSharpeVariance`, `expectedMaxSharpe`), as `sharpeRatio` annualises:
 * annualised = per period · √periodsPerYear. `periodsPerYear: 1` makes them
 * all per period. Resolved by the library's one annualisation rule
 * (periodsPerYearOf: `periodsPerYear`, else inferred from `time`).
 * @param needed false when no annualised number is involved (a benchmark of 0): then 1 without periodsPerYear or time
 * @throws InvalidArgumentError when needed and neither periodsPerYear nor time is given, or either is bad
 * @internal
 */
export function sharpeAnnualisation(options: AnnualisationFields | undefined, where: string, needed: boolean, what: string): number {
  if (options?.periodsPerYear === undefined && options?.time === undefined) {
    if (!needed) return 1;
    throw new InvalidArgumentError(
      "periodsPerYear",
      `${where}: ${what} is an annualised Sharpe ratio: pass periodsPerYear (365 for daily bars, 8760 hourly; 1 if your numbers are per period) or time (bar times, epoch ms, to infer it)`,
    );
  }
  return Math.sqrt(periodsPerYearOf(options, where));
}
