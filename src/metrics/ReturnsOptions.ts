import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";

/** Days in the year used to annualise crypto returns (markets trade every day). */
export const DAYS_PER_YEAR = 365;

/**
 * Options shared by the return metrics. Returns are simple (not log)
 * per-period returns as decimals (0.01 = 1 %).
 */
export interface ReturnsOptions {
  /**
   * Bars per year used to annualise: 365 for daily bars (the default: crypto
   * trades every day), 8760 hourly, 525 600 one-minute. Use
   * `inferPeriodsPerYear(time)` to derive it from the bar spacing.
   */
  readonly periodsPerYear?: number;
}

/** A per-period rate given as one constant or one value per bar (same length as the returns). */
export type PeriodRate = number | ArrayLike<number>;

/** Validated periodsPerYear (default 365). @internal */
export function periodsPerYearOf(options: ReturnsOptions | undefined, where: string): number {
  const ppy = options?.periodsPerYear ?? DAYS_PER_YEAR;
  if (typeof ppy !== "number" || !Number.isFinite(ppy) || ppy <= 0) {
    throw new InvalidArgumentError(
      "periodsPerYear",
      `${where}: periodsPerYear must be a positive finite number (365 for daily bars, 8760 hourly), got ${String(ppy)}`,
    );
  }
  return ppy;
}

/**
 * Check a PeriodRate against the returns' length and return a reader `i -> rate_i`.
 * @internal
 */
export function rateReader(rate: PeriodRate, n: number, name: string, where: string): (i: number) => number {
  if (typeof rate === "number") {
    if (Number.isNaN(rate)) {
      throw new InvalidArgumentError(name, `${where}: ${name} must be a number or one value per return, got NaN`);
    }
    return () => rate;
  }
  if (rate === null || typeof rate !== "object" || typeof rate.length !== "number") {
    throw new InvalidArgumentError(name, `${where}: ${name} must be a number or one value per return, got ${String(rate)}`);
  }
  if (rate.length !== n) {
    throw new InvalidArgumentError(
      name,
      `${where}: ${name} must have one value per return (${n}), got ${rate.length}; pass a number for a constant rate`,
    );
  }
  return (i: number) => rate[i] as number;
}

/** Check that `returns` is array-like. @internal */
export function checkReturns(returns: ArrayLike<number>, where: string, name = "returns"): void {
  if (returns === null || typeof returns !== "object" || typeof returns.length !== "number") {
    throw new InvalidArgumentError(name, `${where}: ${name} must be an array or Float64Array of numbers, got ${String(returns)}`);
  }
}
