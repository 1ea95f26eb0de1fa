import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { inferPeriodsPerYear } from "./inferPeriodsPerYear.js";

/**
 * How a function that annualises learns the bar length: `periodsPerYear`, or
 * `time` (the bar times, epoch ms) from which it is inferred with
 * {@link inferPeriodsPerYear} on a 365-day year. There is no silent default:
 * with neither, {@link periodsPerYearOf} throws. Every function that
 * annualises takes these two options and resolves them through that one rule.
 */
export interface AnnualisationFields {
  /**
   * Bars per year used to annualise: 365 for daily bars (crypto trades every
   * day), 8760 hourly, 525 600 one-minute. Wins over `time` when both are given.
   */
  readonly periodsPerYear?: number;
  /**
   * Bar times, epoch ms ascending (at least 2), from which periodsPerYear is
   * inferred: `365 * 86 400 000 / median(diff(time))`. Need not have the
   * returns' length (only its spacing is read).
   */
  readonly time?: ArrayLike<number>;
}

/**
 * {@link AnnualisationFields} with at least one of the two given, so a call
 * that forgets both fails to compile (and, from JavaScript, throws).
 */
export type AnnualisationOptions = AnnualisationFields & ({ readonly periodsPerYear: number } | { readonly time: ArrayLike<number> });

/**
 * Options shared by the return metrics. Returns are simple (not log)
 * per-period returns as decimals (0.01 = 1 %).
 */
export type ReturnsOptions = AnnualisationOptions;

/** A per-period rate given as one constant or one value per bar (same length as the returns). */
export type PeriodRate = number | ArrayLike<number>;

/**
 * The library's one annualisation rule: `options.periodsPerYear` when given
 * (a positive finite number), else `inferPeriodsPerYear(options.time)` when
 * `time` is given, else an error. Nothing is assumed: a 365 default would
 * silently mis-scale every ratio of intraday bars (by sqrt(24) for hourly).
 * @param where the calling function's name, for the error message
 * @throws InvalidArgumentError when periodsPerYear is not a positive finite number, when
 *   `time` cannot give a spacing (fewer than 2 times, unsorted), or when neither is given
 * @example periodsPerYearOf({ time: [0, 3_600_000, 7_200_000] }, "sharpeRatio") // 8760
 * @internal
 */
export function periodsPerYearOf(options: AnnualisationFields | undefined, where: string): number {
  const ppy = options?.periodsPerYear;
  if (ppy !== undefined) {
    if (typeof ppy !== "number" || !Number.isFinite(ppy) || ppy <= 0) {
      throw new InvalidArgumentError(
        "periodsPerYear",
        `${where}: periodsPerYear must be a positive finite number (365 for daily bars, 8760 hourly), got ${String(ppy)}`,
      );
    }
    return ppy;
  }
  const time = options?.time;
  if (time !== undefined) {
    try {
      return inferPeriodsPerYear(time);
    } catch (e) {
      if (e instanceof InvalidArgumentError) throw new InvalidArgumentError("time", `${where}: cannot infer periodsPerYear from time (${e.message}); pass periodsPerYear`);
      throw e;
    }
  }
  throw new InvalidArgumentError(
    "periodsPerYear",
    `${where}: annualising needs the bar length: pass periodsPerYear (365 for daily bars, 8760 hourly, 525600 one-minute) or time (bar times, epoch ms, to infer it)`,
  );
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
