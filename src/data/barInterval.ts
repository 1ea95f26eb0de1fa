import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";

/** Named bar intervals and their length in ms. */
export const BAR_INTERVALS = Object.freeze({
  "1m": 60_000,
  "5m": 300_000,
  "15m": 900_000,
  "1h": 3_600_000,
  "4h": 14_400_000,
  "1d": 86_400_000,
} as const);

/** A named bar interval (`"1m"` .. `"1d"`) or a length in ms. */
export type BarInterval = keyof typeof BAR_INTERVALS | number;

/**
 * Length of a bar interval in ms.
 * @throws InvalidArgumentError for an unknown name or a non-positive / non-integer ms
 * @example barIntervalMs("4h", "resample") // 14400000
 */
export function barIntervalMs(interval: BarInterval, where: string): number {
  if (typeof interval === "number") {
    if (Number.isInteger(interval) && interval > 0) return interval;
  } else if (typeof interval === "string" && Object.hasOwn(BAR_INTERVALS, interval)) {
    return BAR_INTERVALS[interval];
  }
  throw new InvalidArgumentError(
    "interval",
    `${where}: interval must be one of ${Object.keys(BAR_INTERVALS).join(", ")} or a positive integer of ms, got ${JSON.stringify(interval)}`,
  );
}
