import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { medianSpacing } from "../data/medianSpacing.js";

/** Days in the year used to annualise crypto returns (markets trade every day). */
export const DAYS_PER_YEAR = 365;

const MS_PER_YEAR = DAYS_PER_YEAR * 86_400_000;

/**
 * Bars per year implied by the bar spacing, on a 365-day year (crypto
 * trades every day): `365 * 24 * 3600 * 1000 / median(diff(time))`.
 * 1-minute bars give 525 600, 5-minute 105 120, hourly 8760, 4-hour 2190,
 * daily 365. The median makes a few gaps (missing bars) harmless.
 * @param time bar times, epoch milliseconds, ascending
 * @throws InvalidArgumentError with fewer than 2 times, or when the median spacing is not positive (unsorted or duplicate times)
 * @example inferPeriodsPerYear([0, 3_600_000, 7_200_000]) // 8760
 */
export function inferPeriodsPerYear(time: ArrayLike<number>): number {
  if (time === null || typeof time !== "object" || typeof time.length !== "number") {
    throw new InvalidArgumentError("time", `inferPeriodsPerYear: time must be an array of epoch milliseconds, got ${String(time)}`);
  }
  if (time.length < 2) {
    throw new InvalidArgumentError(
      "time",
      `inferPeriodsPerYear: needs at least 2 bar times to measure the spacing, got ${time.length}; pass periodsPerYear explicitly instead`,
    );
  }
  const median = medianSpacing(time);
  if (!(median > 0) || !Number.isFinite(median)) {
    throw new InvalidArgumentError(
      "time",
      `inferPeriodsPerYear: the median bar spacing must be positive, got ${median} ms; sort the times ascending and drop duplicates`,
    );
  }
  return MS_PER_YEAR / median;
}
